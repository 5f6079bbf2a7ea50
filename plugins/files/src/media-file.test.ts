import { mkdtemp, realpath, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kernel } from "@weft/sdk";
import { createTestKernel } from "@weft/testing";
import filesPlugin from "./index.js";
import { MAX_IMAGE_BYTES } from "./media-file.js";

// The smallest valid PNG (1x1, transparent) and the start of a PDF, as real files on disk.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");
const PDF = Buffer.from("%PDF-1.4\n%\u00e2\u00e3\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n", "latin1");

describe("file_read of an image or PDF", () => {
  let root: string;
  let kernel: Kernel;
  const read = (file: string) => kernel.execute({ name: "file_read", arguments: { path: file } });

  beforeAll(async () => {
    root = await realpath(await mkdtemp(path.join(tmpdir(), "weft-media-")));
    await writeFile(path.join(root, "dot.png"), PNG);
    await writeFile(path.join(root, "report.pdf"), PDF);
    // Named like a text file: the bytes decide, not the name.
    await writeFile(path.join(root, "photo.txt"), PNG);
    await writeFile(path.join(root, "huge.png"), PNG);
    await truncate(path.join(root, "huge.png"), MAX_IMAGE_BYTES + 1);
    kernel = await createTestKernel([[filesPlugin, { root: "." }]], { baseDir: root });
  });
  afterAll(async () => {
    await kernel?.close();
    await rm(root, { recursive: true, force: true });
  });

  it("attaches an image as an image part after a line naming it", async () => {
    const result = await read("dot.png");
    expect(result.output).toBe(`<file path="dot.png" type="image/png" bytes="${PNG.length}"> (attached)`);
    expect(result.parts).toEqual([
      { type: "text", text: result.output },
      { type: "image", mediaType: "image/png", data: PNG.toString("base64") },
    ]);
    expect((await read("photo.txt")).parts?.[1]).toMatchObject({ type: "image", mediaType: "image/png" });
  });

  it("attaches a PDF (one without a NUL byte too) as a document part named after the file", async () => {
    const result = await read("report.pdf");
    expect(result.parts?.[1]).toEqual({ type: "document", mediaType: "application/pdf", data: PDF.toString("base64"), name: "report.pdf" });
  });

  it("refuses an image larger than a model takes, saying the limit", async () => {
    expect(await read("huge.png")).toEqual({ output: `huge.png (image/png) is ${MAX_IMAGE_BYTES + 1} bytes, larger than the ${MAX_IMAGE_BYTES} bytes a model takes`, isError: true });
  });
});
