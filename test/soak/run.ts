/**
 * `npm run soak`: the cloud soak (`soak.ts`, flags as it documents), or with `store` first the
 * store's fault suite at length (`store-soak.ts`): `npm run soak -- store --kills 200`.
 */
if (process.argv[2] === 'store') {
  process.argv.splice(2, 1);
  await import('./store-soak.js');
} else {
  await import('./soak.js');
}
