import { openStore } from './dist/data/index.js';
const T0 = Date.UTC(2024, 4, 1);
function* records(n) { for (let i = 0; i < n; i++) yield { id: i + 1, title: `project ${i}`, author: { id: i % 5000, username: `user${i % 5000}` }, stats: { views: (i * 7919) % 100_000, loves: i % 977 }, score: (i % 1000) / 7, created: new Date(T0 + i * 1000) }; }
const store = await openStore(':memory:');
let s = performance.now();
await store.load('a', records(200000), { key: process.argv[2] === 'key' ? 'id' : false });
console.log(process.argv[2], performance.now() - s);
