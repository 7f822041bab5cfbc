// The command line of the registry-free product image build (src/up/image/build-image.ts, which `gw up --with-node`
// also calls): prints progress on stderr and, as its LAST line on stdout, the directory holding gw.oci.tar and
// image.json.
//
//   node scripts/node24.mjs node scripts/build-image.ts
import { dirname } from 'node:path';
import { buildImage } from '../src/up/image/build-image.ts';

const image = buildImage();
console.log(dirname(image.archive));
