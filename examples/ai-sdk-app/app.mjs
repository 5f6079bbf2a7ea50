// An AI SDK app that uses a weft toolkit, and a weft agent that uses an AI SDK provider.
// Run against any OpenAI-compatible endpoint (Node 22):
//   BASE_URL=http://127.0.0.1:11434/v1 MODEL=qwen3 node app.mjs
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { aiSdkProvider, aiSdkToolApproval, toAiSdkTools } from "@weft/ai-sdk";
import { createAgent, createKernel, createToolkit } from "@weft/core";
import { defineTool } from "@weft/sdk";
import { stepCountIs, streamText } from "ai";
import { z } from "zod";

const weather = defineTool({
  name: "weather",
  description: "Today's weather for a city",
  input: z.object({ city: z.string().min(2), unit: z.enum(["c", "f"]).default("c") }),
  execute: ({ city, unit }) => ({ output: `${city}: 12 degrees ${unit.toUpperCase()}, light rain` }),
});

// A tool that asks before it acts: a weft `pending` approval, which the AI SDK app sees as its own approval request.
const book = defineTool({
  name: "book_hotel",
  description: "Book a hotel room in a city",
  input: z.object({ city: z.string() }),
  execute: ({ city }, ctx) =>
    ctx.answer?.action === "accept" ? { output: `booked a room in ${city}` } : { output: "", pending: { kind: "approval", message: `Book a room in ${city}?` } },
});

const skills = [{ name: "packing", description: "What to pack for a trip, by weather", content: "Rain: pack an umbrella." }];

/** weft → AI SDK: the toolkit's tools (behind weft's gate and limits) and skills prompt in streamText. */
export async function streamWithWeftTools({ baseURL, model, apiKey, write = (text) => process.stdout.write(text) }) {
  const toolkit = await createToolkit({ builtins: false, extraTools: [weather], skills });
  try {
    const provider = createOpenAICompatible({ name: "local", baseURL, apiKey, includeUsage: true });
    const result = streamText({
      model: provider(model),
      system: toolkit.prompt,
      tools: toAiSdkTools(toolkit),
      prompt: "What should I pack for Oslo today?",
      stopWhen: stepCountIs(5),
    });
    for await (const delta of result.textStream) write(delta);
    return await result.text;
  } finally {
    await toolkit.close();
  }
}

/**
 * weft suspensions as AI SDK approvals: the model asks to book, the app shows the approval request's
 * reason to `approve` (the user), and answers it in the next streamText call, which resumes the weft call.
 */
export async function bookWithApproval({ baseURL, model, apiKey, approve }) {
  const toolkit = await createToolkit({ builtins: false, extraTools: [book] });
  try {
    const provider = createOpenAICompatible({ name: "local", baseURL, apiKey, includeUsage: true });
    const tools = toAiSdkTools(toolkit);
    const messages = [{ role: "user", content: "Book me a room in Oslo." }];
    for (let round = 0; round < 3; round++) {
      const result = streamText({ model: provider(model), tools, toolApproval: aiSdkToolApproval(tools), messages, stopWhen: stepCountIs(5) });
      messages.push(...(await result.responseMessages));
      const asks = (await result.content).filter((part) => part.type === "tool-approval-request" && !part.isAutomatic);
      if (asks.length === 0) return await result.text;
      const answers = [];
      for (const ask of asks) answers.push({ type: "tool-approval-response", approvalId: ask.approvalId, approved: await approve(ask.reason ?? "") });
      messages.push({ role: "tool", content: answers });
    }
    return "(still waiting for approvals)";
  } finally {
    await toolkit.close();
  }
}

/** AI SDK → weft: the same endpoint through the AI SDK provider, driving weft's own agent loop. */
export async function weftAgentOnAiSdk({ baseURL, model, apiKey }) {
  const kernel = createKernel();
  await kernel.use(aiSdkProvider("local", createOpenAICompatible({ name: "local", baseURL, apiKey, includeUsage: true }), { contextWindow: 32_000 }));
  kernel.hooks.tools.tap((registrar) => void registrar.add(weather));
  await kernel.ready();
  try {
    const agent = createAgent({ kernel, model: await kernel.createModel(`local/${model}`) });
    const response = await agent.process("Weather in Oslo?");
    return response.content;
  } finally {
    await kernel.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const settings = { baseURL: process.env.BASE_URL ?? "http://127.0.0.1:11434/v1", model: process.env.MODEL ?? "qwen3", apiKey: process.env.API_KEY };
  await streamWithWeftTools(settings);
  const approve = async (reason) => {
    console.log(`approving: ${reason}`);
    return true;
  };
  process.stdout.write(`\n---\n${await bookWithApproval({ ...settings, approve })}\n`);
  process.stdout.write(`\n---\n${await weftAgentOnAiSdk(settings)}\n`);
}
