"""What every worker shares: imported once by the supervisor's fork server, before any worker is forked
from it.

The workers are forked from a fork server (`multiprocessing`'s "forkserver" start method), a clean
single-threaded process the supervisor starts before the first worker; the fork server imports this module
once. So the modules a worker runs (gRPC, protobuf and the generated messages, the compiled engine and every
rule set's tables, prometheus_client) are loaded, and the engine warmed up, once per server instead of once
per worker: the workers share those pages copy-on-write, which lowers each worker's proportional memory
(PSS), and a replacement worker is ready in a fraction of the time an import takes. The objects alive now
are frozen (`gc.freeze()`), so no collection in a worker writes to the shared pages they sit on.

No gRPC object is created here (gRPC's threads and a fork do not mix): `mjsvc.worker` only imports gRPC;
each worker builds its own server after the fork.
"""

from __future__ import annotations

import gc

from mjsvc import worker

WARM = worker.warm_up()  # each worker warms up again after the fork; that run finds everything built
gc.collect()
gc.freeze()
