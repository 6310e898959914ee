import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_ID, PRODUCT_NAME } from '../../../electron/shell/app-identity';
import { appLayout } from '../../../electron/shell/paths';

/**
 * electron-builder.yml against electron-builder's own JSON schema, with the ajv and js-yaml that
 * electron-builder itself loads (required from app-builder-lib, so no extra dependency).
 */
const root = join(__dirname, '..', '..', '..');
const builderRequire = createRequire(require.resolve('app-builder-lib/package.json'));
const yaml = builderRequire('js-yaml') as { load(text: string): unknown };
const Ajv = (builderRequire('ajv') as { default: new (o: object) => AjvInstance }).default;
interface AjvInstance {
  compile(schema: object): ((data: unknown) => boolean) & { errors?: unknown[] | null };
}
const schema = builderRequire('./scheme.json') as object;
const config = yaml.load(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as Record<
  string,
  unknown
>;

function validate(data: unknown) {
  // coerceTypes off (electron-builder turns it on): "true" as a string is a mistake here.
  const check = new Ajv({ allErrors: true, strict: false }).compile(schema);
  return { valid: check(data), errors: check.errors ?? [] };
}

describe('electron-builder.yml', () => {
  it("matches electron-builder's schema", () => {
    const result = validate(config);
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('is checked for real: the schema refuses an unknown option and a misspelt fuse', () => {
    expect(validate({ ...config, notAnOption: true }).valid).toBe(false);
    expect(validate({ ...config, electronFuses: { runAsnode: false } }).valid).toBe(false);
    expect(validate({ ...config, asar: 'yes' }).valid).toBe(false);
  });

  it('names the app and targets NSIS, DMG, AppImage and deb', () => {
    expect(config.appId).toBe(APP_ID);
    expect(config.productName).toBe(PRODUCT_NAME);
    expect(config.win).toEqual({ target: ['nsis'] });
    expect((config.mac as { target: string[] }).target).toEqual(['dmg']);
    expect((config.linux as { target: string[] }).target).toEqual(['AppImage', 'deb']);
  });

  it('packs into asar with native modules unpacked', () => {
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toEqual(
      expect.arrayContaining([
        '**/*.node',
        'node_modules/better-sqlite3/**/*',
        'node_modules/keytar/**/*',
      ]),
    );
  });

  it('ships only the built output, started from the bundled main process', () => {
    const layout = appLayout(root);
    expect(config.files).toEqual([
      'package.json',
      'dist/electron/**/*',
      'dist/renderer/**/*',
      '!**/*.map',
    ]);
    expect((config.extraMetadata as { main: string }).main).toBe(
      layout.mainBundle
        .slice(root.length + 1)
        .split('\\')
        .join('/'),
    );
  });

  it('sets the fuses: no RunAsNode, NODE_OPTIONS or inspect; cookies encrypted; asar only, checked', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });
});
