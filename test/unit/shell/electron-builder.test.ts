import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_ID, PRODUCT_NAME } from '../../../electron/transport/app-identity';
import { appLayout } from '../../../electron/transport/paths';
import { ICNS_TYPES, ICO_SIZES, LINUX_SIZES } from '../../../scripts/make-icons';

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
    expect((config.win as { target: string[] }).target).toEqual(['nsis']);
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

  it('has icons at the sizes each platform needs, where each platform section points', () => {
    const png = (path: string) => {
      const data = readFileSync(join(root, path));
      expect(data.subarray(1, 4).toString('ascii')).toBe('PNG');
      return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
    };
    expect((config.directories as { buildResources: string }).buildResources).toBe('build');
    expect((config.linux as { icon: string }).icon).toBe('build/icons');
    for (const size of LINUX_SIZES) {
      expect(png(`build/icons/${size}x${size}.png`)).toEqual({ width: size, height: size });
    }
    expect(png('build/icon.png')).toEqual({ width: 1024, height: 1024 });

    expect((config.win as { icon: string }).icon).toBe('build/icon.ico');
    const ico = readFileSync(join(root, 'build', 'icon.ico'));
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]);
    const icoSizes = Array.from({ length: ico.readUInt16LE(4) }, (_, i) => ico[6 + 16 * i] || 256);
    expect(icoSizes).toEqual([...ICO_SIZES]);
    expect(icoSizes).toContain(256); // NSIS and electron-builder refuse an icon without 256×256

    expect((config.mac as { icon: string }).icon).toBe('build/icon.icns');
    const icns = readFileSync(join(root, 'build', 'icon.icns'));
    expect(icns.subarray(0, 4).toString('ascii')).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    const types: string[] = [];
    for (let at = 8; at < icns.length; at += icns.readUInt32BE(at + 4)) {
      types.push(icns.subarray(at, at + 4).toString('ascii'));
    }
    expect(types).toEqual(ICNS_TYPES.map(([type]) => type));
    expect(types).toContain('ic10'); // 1024×1024 for Retina
  });

  it('puts the Linux app in the Finance category and the deb depends on libsecret', () => {
    const linux = config.linux as { category: string; desktop: { entry: Record<string, string> } };
    expect(linux.category.split(';')).toContain('Finance');
    expect(linux.desktop.entry.Categories).toBe('Office;Finance;');
    const depends = (config.deb as { depends: string[] }).depends;
    expect(depends).toContain('libsecret-1-0');
    expect(depends).toEqual(expect.arrayContaining(['libgtk-3-0', 'libnss3', 'libnotify4']));
  });

  it('rebuilds native modules with @electron/rebuild, no hand-written node-gyp step', () => {
    expect(config.npmRebuild).toBe(true);
    expect(config.nativeRebuilder).toBe('sequential');
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
      devDependencies: Record<string, string>;
      optionalDependencies: Record<string, string>;
      dependencies: Record<string, string>;
    };
    expect(pkg.scripts.package).toBe('tsx scripts/package.ts');
    expect(pkg.devDependencies['@electron/rebuild']).toBeDefined();
    expect(pkg.devDependencies['node-gyp']).toBeUndefined();
    expect(pkg.optionalDependencies.keytar).toBeDefined();
    expect(pkg.dependencies.keytar).toBeUndefined();
    expect(existsSync(join(root, 'scripts', 'package.ts'))).toBe(true);
  });
});
