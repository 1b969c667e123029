// Builds the server's container image without a container engine or a registry: an OCI image
// archive (what `podman load`, `docker load` and `skopeo copy oci-archive:…` take) made of
//
//   1. Debian's C and C++ runtime (libc6, libgcc-s1, libstdc++6) unpacked from the packages apt
//      verifies, each recorded in var/lib/dpkg/status.d/ so that an image scanner finds their
//      versions, plus an unprivileged user (65532, as in distroless images); no shell, no apt;
//   2. the Node the project runs on (node_modules/node-linux-*: the `engines` Node), /usr/local/bin/node;
//   3. the server alone: its built bundle, the built portal and console, the tenant registry and a production
//      install of the server's workspace (`npm ci --omit=dev --workspace @concierge/server`).
//
// Each layer is a tar made with sorted names, one owner and the commit's time, so the same commit on
// the same packages gives the same layers; umoci (the Open Container Initiative's tool) writes the
// image and its configuration. Needs GNU tar, dpkg-deb, apt-get and umoci (Debian's packages).
//
//   node scripts/container-image.mjs [--out FILE]   (default concierge-server.oci.tar)
//
// docs/operations.md ("Container image") says how to load, run and push it; scripts/container-image.test.ts
// builds it and starts what it holds.
import { execFile } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { arch, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { SERVER_NODE_OPTIONS } from './build-node-apps.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/** What the server's Node needs of the system (`ldd node`: libc, libm, libdl, libpthread, libstdc++, libgcc_s). */
export const DEBIAN_PACKAGES = ['libc6', 'libgcc-s1', 'libstdc++6'];
/** The user the server runs as: no login, no home, owns nothing in the image. */
export const IMAGE_USER = { uid: 65532, name: 'nonroot' };
export const APP_DIR = '/app';
/** The workspaces whose package.json `npm ci --workspace` reads besides the server's: every one, as the lock file names them. */
const WORKSPACE_GLOBS = ['packages', 'apps'];

const execFileAsync = promisify(execFile);
/**
 * A command's standard output, trimmed. Commands run without holding the event loop: the tests'
 * worker serves other files meanwhile (only the file copies here are synchronous, and short).
 */
async function run(command, args, options = {}) {
  const { stdout } = await execFileAsync(command, args, { maxBuffer: 64 * 1024 * 1024, ...options });
  return stdout.trim();
}

/**
 * @param {{ out?: string, quiet?: boolean }} [options]
 * @returns {Promise<{ out: string, tag: string, layers: { name: string, bytes: number }[] }>}
 */
export async function buildContainerImage({
  out = join(root, 'concierge-server.oci.tar'),
  quiet = false,
} = {}) {
  for (const built of [
    'apps/server/dist/main.js',
    'apps/portal/dist/server/entry-server.js',
    'apps/console/dist/server/entry-server.js',
  ]) {
    if (!existsSync(join(root, built))) throw new Error(`${built} is missing: run npm run build first`);
  }
  const say = (line) => quiet || console.log(line);
  const commit = await run('git', ['rev-parse', 'HEAD'], { cwd: root });
  // The commit's time for every file and for the image's dates: a rebuild of a commit changes nothing.
  const epoch = Number(await run('git', ['log', '-1', '--format=%ct'], { cwd: root }));
  const created = new Date(epoch * 1000).toISOString();
  const tag = commit.slice(0, 12);
  const work = mkdtempSync(join(tmpdir(), 'concierge-image-'));
  try {
    say('Debian runtime…');
    const base = join(work, 'base');
    await unpackDebianPackages(base, join(work, 'debs'));

    say('Node…');
    const nodeLayer = join(work, 'node');
    const nodePackage = join(root, 'node_modules', `node-linux-${arch()}`);
    mkdirSync(join(nodeLayer, 'usr/local/bin'), { recursive: true });
    cpSync(join(nodePackage, 'bin/node'), join(nodeLayer, 'usr/local/bin/node'));
    mkdirSync(join(nodeLayer, 'usr/local/share/doc/node'), { recursive: true });
    cpSync(join(nodePackage, 'LICENSE'), join(nodeLayer, 'usr/local/share/doc/node/LICENSE'));
    const nodeVersion = await run(join(nodeLayer, 'usr/local/bin/node'), ['--version']);

    say('The server and its production install…');
    const appLayer = join(work, 'app');
    await stageServer(join(appLayer, APP_DIR.slice(1)));

    say('Image…');
    const layout = join(work, 'layout');
    const image = `${layout}:${tag}`;
    await run('umoci', ['init', '--layout', layout]);
    await run('umoci', ['new', '--image', image]);
    /** @type {{ name: string, bytes: number }[]} */
    const layers = [];
    for (const [name, folder] of [
      ['Debian runtime', base],
      [`Node ${nodeVersion}`, nodeLayer],
      ['Concierge server', appLayer],
    ]) {
      const tar = join(work, `${layers.length}.tar`);
      await layerTar(folder, tar, epoch);
      layers.push({ name, bytes: statSync(tar).size });
      await run('umoci', [
        'raw',
        'add-layer',
        '--image',
        image,
        '--history.created',
        created,
        '--history.created_by',
        name,
        tar,
      ]);
    }
    const entrypoint = [
      '/usr/local/bin/node',
      ...SERVER_NODE_OPTIONS,
      '--enable-source-maps',
      'apps/server/dist/main.js',
    ];
    await run('umoci', [
      'config',
      '--image',
      image,
      '--created',
      created,
      '--history.created',
      created,
      '--history.created_by',
      'configuration',
      '--architecture',
      await run('dpkg', ['--print-architecture']),
      '--os',
      'linux',
      '--config.user',
      `${IMAGE_USER.uid}:${IMAGE_USER.uid}`,
      '--config.workingdir',
      APP_DIR,
      ...entrypoint.flatMap((part) => ['--config.entrypoint', part]),
      // A container listens on every address of its own network; the metrics port too, when set.
      ...[
        'PATH=/usr/local/bin:/usr/bin:/bin',
        'NODE_ENV=production',
        'HOST=0.0.0.0',
        'PORT=8080',
        'METRICS_HOST=0.0.0.0',
        `BUILD_COMMIT=${commit}`,
      ].flatMap((variable) => ['--config.env', variable]),
      '--config.exposedports',
      '8080/tcp',
      '--config.stopsignal',
      'SIGTERM',
      '--config.label',
      `org.opencontainers.image.revision=${commit}`,
      '--config.label',
      `org.opencontainers.image.created=${created}`,
      '--config.label',
      'org.opencontainers.image.title=Concierge server',
    ]);
    await run('umoci', ['gc', '--layout', layout]);
    const target = resolve(out);
    rmSync(target, { force: true });
    await reproducibleTar(layout, target, epoch, ['.']);
    say(
      `${target} (${tag}): ${layers.map((layer) => `${layer.name} ${mebibytes(layer.bytes)}`).join(', ')}, uncompressed`,
    );
    return { out: target, tag, layers };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Debian's packages, as apt downloads and verifies them, unpacked into folder, with the files an image needs around them. */
async function unpackDebianPackages(folder, downloads) {
  mkdirSync(downloads, { recursive: true });
  try {
    await run('apt-get', ['download', '-q', ...DEBIAN_PACKAGES], { cwd: downloads });
  } catch (error) {
    throw new Error(
      `apt-get download ${DEBIAN_PACKAGES.join(' ')} failed (apt-get update first?): ${error.stderr ?? error}`,
    );
  }
  const status = join(folder, 'var/lib/dpkg/status.d');
  mkdirSync(status, { recursive: true });
  for (const name of DEBIAN_PACKAGES) {
    const deb = readdirSync(downloads).find((file) => file.startsWith(`${name}_`));
    if (!deb) throw new Error(`apt-get download left no ${name}`);
    await run('dpkg-deb', ['-x', join(downloads, deb), folder]);
    // What dpkg itself would record: scanners (Trivy, Grype, Syft) read distroless images this way.
    const control = await run('dpkg-deb', ['-f', join(downloads, deb)]);
    writeFileSync(
      join(status, name),
      `${control.replace(/^(Package: .*)$/m, '$1\nStatus: install ok installed')}\n`,
    );
  }
  const { uid, name } = IMAGE_USER;
  mkdirSync(join(folder, 'etc'), { recursive: true });
  writeFileSync(
    join(folder, 'etc/passwd'),
    `root:x:0:0:root:/root:/sbin/nologin\n${name}:x:${uid}:${uid}:${name}:/nonexistent:/sbin/nologin\n`,
  );
  writeFileSync(join(folder, 'etc/group'), `root:x:0:\n${name}:x:${uid}:\n`);
  // Without it glibc asks DNS before /etc/hosts, also for localhost.
  writeFileSync(join(folder, 'etc/nsswitch.conf'), 'passwd: files\ngroup: files\nhosts: files dns\n');
  mkdirSync(join(folder, 'tmp'), { mode: 0o1777 });
  chmodSync(join(folder, 'tmp'), 0o1777);
}

/** What the server runs with, at folder: its bundle, the portal's, the tenant registry and its production packages. */
async function stageServer(folder) {
  mkdirSync(folder, { recursive: true });
  for (const file of ['package.json', 'package-lock.json']) cpSync(join(root, file), join(folder, file));
  // npm ci checks the lock file against every workspace's package.json, so each comes along.
  for (const parent of WORKSPACE_GLOBS) {
    for (const name of readdirSync(join(root, parent))) {
      const manifest = join(parent, name, 'package.json');
      if (!existsSync(join(root, manifest))) continue;
      mkdirSync(join(folder, parent, name), { recursive: true });
      cpSync(join(root, manifest), join(folder, manifest));
    }
  }
  for (const extra of ['e2e', 'bench']) {
    mkdirSync(join(folder, extra), { recursive: true });
    cpSync(join(root, extra, 'package.json'), join(folder, extra, 'package.json'));
  }
  // No install script runs: none of the server's packages needs one.
  await run(
    'npm',
    [
      'ci',
      '--omit=dev',
      '--workspace',
      '@concierge/server',
      '--ignore-scripts',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
    ],
    {
      cwd: folder,
    },
  );
  // The workspace packages are bundled into dist/main.js; their links would point at nothing.
  rmSync(join(folder, 'node_modules/@concierge'), { recursive: true, force: true });
  for (const built of ['apps/server/dist', 'apps/portal/dist', 'apps/console/dist', 'tenants']) {
    cpSync(join(root, built), join(folder, built), { recursive: true });
  }
  // What runs needs the server's, the portal's and the console's manifests (their "type": "module") and no other.
  const keep = new Set(['node_modules', 'apps', 'tenants']);
  for (const name of readdirSync(folder))
    if (!keep.has(name)) rmSync(join(folder, name), { recursive: true, force: true });
  for (const name of readdirSync(join(folder, 'apps'))) {
    if (name !== 'server' && name !== 'portal' && name !== 'console')
      rmSync(join(folder, 'apps', name), { recursive: true, force: true });
  }
}

/** A layer: folder's contents as a tar. */
async function layerTar(folder, tar, epoch) {
  await reproducibleTar(folder, tar, epoch, readdirSync(folder).sort());
}

/** The named entries of folder as a tar that only their contents decide: sorted, root-owned, the commit's time. */
async function reproducibleTar(folder, tar, epoch, names) {
  await run('tar', [
    '--sort=name',
    `--mtime=@${epoch}`,
    '--owner=0',
    '--group=0',
    '--numeric-owner',
    '--pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime',
    '-C',
    folder,
    '-cf',
    tar,
    ...names,
  ]);
}

function mebibytes(bytes) {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--out');
  await buildContainerImage(at > 0 ? { out: process.argv[at + 1] } : {});
}
