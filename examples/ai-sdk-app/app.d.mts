export interface AppSettings {
  baseURL: string;
  model: string;
  apiKey?: string;
}
export function streamWithWeftTools(settings: AppSettings & { write?: (text: string) => void }): Promise<string>;
export function weftAgentOnAiSdk(settings: AppSettings): Promise<string>;
export function bookWithApproval(settings: AppSettings & { approve: (reason: string) => Promise<boolean> }): Promise<string>;
