/**
 * `near-sandbox --home DIR view-state dump-state [--stream]`: writes the head state of the home's chain as a
 * new genesis, where neard's state viewer writes it (nearcore tools/state-viewer, `dump_state`):
 *
 * - without `--stream`: `DIR/output.json`, a genesis with every state record in `records`;
 * - with `--stream`: `DIR/output/genesis.json` (the genesis with empty `records`), `DIR/output/records.json`
 *   (the records), and beside them the home's `config.json`, `node_key.json` and `validator_key.json`.
 *
 * The genesis starts at the head block (its height and time), its total_supply is the records' sum. It runs
 * while the node runs too (the store is read-only here), as near-kit and near-sandbox-js do.
 */
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EXIT_FAILURE, EXIT_OK } from '../exit-codes.js';
import { COMMAND, type ParsedArgs } from './neard-args.js';

export async function dumpStateCommand(home: string, args: ParsedArgs): Promise<number> {
  const { dumpHomeState, loadHome, serializeGenesis } = await import('@shadebox/node');
  try {
    const loaded = await loadHome(home);
    const { genesis, height } = await dumpHomeState({ ...loaded, dir: home });
    if (args.flags.get('stream') === true) {
      const out = join(home, 'output');
      await mkdir(out, { recursive: true });
      await writeFile(join(out, 'genesis.json'), serializeGenesis({ ...genesis, records: [] }));
      await writeFile(join(out, 'records.json'), `${JSON.stringify(genesis.records, null, 2)}\n`);
      await copyFile(join(home, 'config.json'), join(out, 'config.json'));
      await copyFile(join(home, loaded.config.node_key_file), join(out, 'node_key.json'));
      await copyFile(join(home, loaded.config.validator_key_file), join(out, 'validator_key.json'));
    } else {
      await writeFile(join(home, 'output.json'), serializeGenesis(genesis));
    }
    process.stderr.write(
      `near-sandbox: state at height ${height} dumped (${genesis.records.length} records)\n`,
    );
    return EXIT_OK;
  } catch (error) {
    process.stderr.write(
      `${COMMAND}: error: cannot dump the state of ${home}: ${(error as Error).message}\n`,
    );
    return EXIT_FAILURE;
  }
}
