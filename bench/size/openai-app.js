// openai-node's client constructed in a browser app, for comparison.
import OpenAI from 'openai';

globalThis.client = new OpenAI({ apiKey: 'sk-test', dangerouslyAllowBrowser: true });
