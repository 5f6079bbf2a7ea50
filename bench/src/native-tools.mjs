/** zod schemas of the in-process tools, as the peers' own docs define tools. */
import { z } from "zod";

export const zodSchemas = {
  get_weather: z.object({ city: z.string().describe("City name") }),
  add: z.object({ a: z.number(), b: z.number() }),
  local_time: z.object({ city: z.string() }),
  read_skill: z.object({ name: z.string().describe("The skill's name") }),
};
