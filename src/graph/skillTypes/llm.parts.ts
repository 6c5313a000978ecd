import type { LlmSkill } from '../skills.ts';
import type { SkillParts } from './types.ts';

/** What only the inspector reads of an llm skill, kept off the first screen (./llm.ts is on it). */
export const llmParts = {
  settings: {
    fields: [
      { key: 'baseUrl', type: 'text', label: 'Base URL', optional: false, help: 'An OpenAI-compatible endpoint, e.g. http://localhost:11434/v1' },
      { key: 'model', type: 'text', label: 'Model', optional: false },
      { key: 'apiKeyName', type: 'text', label: 'API key name', help: 'The command line reads the key from this environment variable.' },
      // The key itself, for the name above and the origin of the skill's `calls`.
      { key: 'apiKeyName', type: 'editor', editor: 'apiKey' },
      { key: 'temperature', type: 'number', label: 'Temperature', optional: true },
      { key: 'timeoutMs', type: 'number', label: 'Timeout (ms)' },
    ],
    asked: ['baseUrl', 'model'],
  },
} satisfies SkillParts<LlmSkill>;
