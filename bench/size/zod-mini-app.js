// zod/mini alone, parsing one object: the validation the SDK builds on, for reference.
import * as z from 'zod/mini';

globalThis.parse = (value) => z.looseObject({ id: z.string(), points: z.int() }).parse(value);
