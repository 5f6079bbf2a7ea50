/** The files of a new third-party pack, built against @weft/sdk alone, with a passing test. */
export interface PluginTemplate {
  packageName: string;
  toolName: string;
  /** The `^x.y.z` range of the weft packages this CLI belongs to. */
  weftRange: string;
}

/** `jira` → `weft-plugin-jira`; a name already carrying a prefix or a scope is kept. */
export function pluginPackageName(name: string): string {
  return name.startsWith("@") || name.startsWith("weft-plugin-") ? name : `weft-plugin-${name}`;
}

export function pluginFiles(template: PluginTemplate): Record<string, string> {
  const { packageName, toolName, weftRange } = template;
  return {
    "package.json": `${JSON.stringify(
      {
        name: packageName,
        version: "0.1.0",
        description: `A weft pack: ${toolName}`,
        type: "module",
        license: "MIT",
        engines: { node: ">=20" },
        exports: { ".": { types: "./dist/index.d.ts", import: "./dist/index.js", default: "./dist/index.js" } },
        files: ["dist", "README.md"],
        // prepack: a plain `npm pack` / `npm publish` ships a fresh build, never an empty or stale dist.
        scripts: { build: "tsc -p tsconfig.json", prepack: "npm run build", test: "vitest run" },
        peerDependencies: { "@weft/sdk": weftRange },
        devDependencies: {
          "@weft/sdk": weftRange,
          "@weft/testing": weftRange,
          "@types/node": "20.19.43",
          typescript: "7.0.2",
          vite: "8.3.8",
          vitest: "4.1.12",
        },
      },
      null,
      2,
    )}\n`,
    "tsconfig.json": `${JSON.stringify(
      {
        compilerOptions: {
          target: "ES2023",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          declaration: true,
          skipLibCheck: true,
          verbatimModuleSyntax: true,
          rootDir: "src",
          outDir: "dist",
          types: ["node"],
        },
        include: ["src"],
        exclude: ["src/**/*.test.ts"],
      },
      null,
      2,
    )}\n`,
    "src/index.ts": `import { Type } from "@weft/sdk/typebox";
import { PLUGIN_API_VERSION, definePlugin, defineTool } from "@weft/sdk";

/** The pack's one tool; add more beside it. The description is what the model reads. */
export const ${camel(toolName)} = defineTool({
  name: "${toolName}",
  description: "Say hello to someone by name.",
  input: Type.Object({ name: Type.String({ description: "Who to greet" }) }),
  execute: ({ name }) => ({ output: \`hello, \${name}\` }),
});

export default definePlugin({
  meta: { name: "${packageName}", version: "0.1.0", api: PLUGIN_API_VERSION },
  options: Type.Object({}),
  setup(api) {
    api.hooks.tools.tap((tools) => void tools.add(${camel(toolName)}));
  },
});
`,
    "src/index.test.ts": `import { describe, expect, it } from "vitest";
import { createTestKernel } from "@weft/testing";
import plugin from "./index.js";

describe("${packageName}", () => {
  it("offers ${toolName} through the kernel's execute path", async () => {
    const kernel = await createTestKernel([plugin]);
    expect(kernel.tools.list().map((tool) => tool.name)).toEqual(["${toolName}"]);
    expect(await kernel.execute({ name: "${toolName}", arguments: { name: "Ada" } })).toEqual({ output: "hello, Ada" });
    await kernel.close();
  });
});
`,
    "README.md": `# ${packageName}

A weft pack. Enable it in a project's \`weft.config.yaml\`:

\`\`\`yaml
plugins:
  - ${packageName}
\`\`\`

| tool | arguments | answers |
|---|---|---|
| \`${toolName}\` | \`name\` | \`hello, <name>\` |

\`npm test\` runs its tests on the sdk's test kit; \`npm run build\` builds \`dist/\`.
`,
  };
}

function camel(name: string): string {
  return name.replace(/[-_](\w)/g, (_, letter: string) => letter.toUpperCase());
}
