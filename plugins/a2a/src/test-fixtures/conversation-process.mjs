// One weft process: loads the agent's tools with the conversations a previous process stored, makes
// one call in session "s1", and prints the reply and the session's conversations for the next process.
// argv: <plugin dist index.js URL> <card URL> <task> <stored session JSON>
const [pluginUrl, card, task, stored] = process.argv.slice(2);
const { Conversations, resolveAgentTools } = await import(pluginUrl);
const conversations = new Conversations();
conversations.restore("s1", JSON.parse(stored));
const [tool] = await resolveAgentTools([{ card }], { conversations });
const controller = new AbortController();
const result = await tool.execute({ task }, { signal: controller.signal, callId: "c1", onProgress() {}, session: { id: "s1" } });
process.stdout.write(JSON.stringify({ output: result.output, session: conversations.session("s1") }));
