// Holds LIVE MiB of small objects in V8's heap and churns garbage through
// it (issue 37's Node.js row).  V8 sizes its heap limit from the host, or
// from a cgroup it is itself in, not from a limit one level above it, as
// Slurm's are: it lets the heap grow past the step's memory and the kernel
// then kills the process or makes it thrash at the limit.
const live = Number(process.argv[2] || 250);
const rounds = Number(process.argv[3] || 12);
// An array of 124 doubles: about 1 KiB of heap with its headers.
const perMiB = 1024;
const kept = new Array(live * perMiB);
const item = (i) => { const a = new Array(124); for (let j = 0; j < 124; j++) a[j] = i + j + 0.5; return a; };
for (let i = 0; i < kept.length; i++) kept[i] = item(i);
for (let r = 0; r < rounds; r++)
  for (let i = 0; i < kept.length; i++) kept[i] = item(r + i);
let sum = 0;
for (let i = 0; i < kept.length; i += 4096) sum += kept[i][0];
console.log(`nchurn=finished heap_limit_mib=${Math.floor(require('v8').getHeapStatistics().heap_size_limit / 1048576)} sum=${sum}`);
