// Reports what Node.js sizes itself from: its parallelism, V8's heap limit
// and the libuv pool size it was given.
const os = require('os');
const v8 = require('v8');
const mib = Math.floor(v8.getHeapStatistics().heap_size_limit / 1048576);
console.log(`parallelism=${os.availableParallelism()} heap_limit_mib=${mib} ` +
            `uv_pool=${process.env.UV_THREADPOOL_SIZE || 'default'}`);
