import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { contract, deskEvent } from '../../../shared/contract';

/**
 * shared/contract.ts only joins the areas (docs/architecture.md, "One contract"): each area's
 * channels and events are written in `shared/<area>/contract.ts`, none in the join itself.
 */
const shared = join(__dirname, '..', '..', '..', 'shared');
const areaFolders = readdirSync(shared, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(shared, d.name, 'contract.ts')))
  .map((d) => d.name)
  .sort();
const areaModule = (area: string) =>
  import(join(shared, area, 'contract.ts')) as Promise<Record<string, unknown>>;

describe('the contract, joined from its areas', () => {
  it('takes each area’s channels from its folder', async () => {
    for (const area of Object.keys(contract)) {
      expect(areaFolders).toContain(area);
      const channels = (await areaModule(area))[`${area}Contract`];
      expect(channels, area).toBe(contract[area as keyof typeof contract]);
    }
  });

  it('takes every event from an area, each once', async () => {
    const fromAreas: string[] = [];
    for (const area of areaFolders) {
      const events = (await areaModule(area))[`${area}Events`] as
        readonly z.ZodObject<{ type: z.ZodLiteral<string> }>[] | undefined;
      for (const event of events ?? []) {
        expect(deskEvent.options, event.shape.type.value).toContain(event);
        fromAreas.push(event.shape.type.value);
      }
    }
    const joined = deskEvent.options.map((o) => o.shape.type.value);
    expect([...fromAreas].sort()).toEqual([...joined].sort());
  });
});
