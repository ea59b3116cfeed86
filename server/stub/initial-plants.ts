// Initial plants: a JSON file of NewPlant records, stored before the first
// request (PLANTSTORE_PLANTS_FILE). The server refuses to start when the file
// cannot be used; buildApp stores the plants with the create rule, all or none.
import { readFileSync } from 'node:fs';
import { StartError } from '../../lib/start-error.js';
import { JsonSyntaxError, parseJson, type JsonValue } from '../json/json.js';

/** The plants to store before the first request, and where they came from (for messages). */
export interface InitialPlants {
  source: string;
  plants: JsonValue;
  /** The JSON text `plants` was parsed from, when it was read from one: the stored plants keep its values as written. */
  text?: string;
}

/** Initial plants that cannot be used: the server refuses to start. */
export class InitialPlantsError extends StartError {
  override readonly name = 'InitialPlantsError';
  constructor(message: string) {
    super('PLANTSTORE_INITIAL_PLANTS', message);
  }
}

/**
 * Reads a JSON array of NewPlant records from `file`; messages name the file
 * and `variable`, the environment variable that gave it.
 */
export function readInitialPlantsFile(file: string, variable = 'PLANTSTORE_PLANTS_FILE'): InitialPlants {
  const source = `${variable} ${file}`;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new InitialPlantsError(
      `${source} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  let plants: JsonValue;
  try {
    // The parser skips a byte order mark, as editors may write one.
    plants = parseJson(text);
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    throw new InitialPlantsError(`${source} is not valid JSON: ${error.message}`);
  }
  if (!Array.isArray(plants)) throw new InitialPlantsError(`${source} must hold a JSON array of NewPlant records`);
  return { source, plants, text };
}
