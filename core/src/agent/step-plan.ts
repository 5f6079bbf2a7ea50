import type { ChatModel, StepPlan } from "@weft/sdk";

/**
 * Switches the model and effort a `prepareStep` plan asks for, for one call; the returned function
 * puts them back. `changeModel` / `changeEffort` validate first, so a plan naming a model the
 * ChatModel cannot switch to fails the turn with their error, before anything is sent.
 */
export function applyStepPlan(model: ChatModel, plan: StepPlan): () => void {
  const { model: modelId, effort } = model;
  if (plan.model !== undefined && plan.model !== modelId) model.changeModel(plan.model);
  try {
    if (plan.effort !== undefined && plan.effort !== effort) model.changeEffort(plan.effort);
  } catch (error) {
    if (model.model !== modelId) model.changeModel(modelId);
    throw error;
  }
  return () => {
    if (model.model !== modelId) model.changeModel(modelId);
    if (model.effort !== effort) model.changeEffort(effort);
  };
}
