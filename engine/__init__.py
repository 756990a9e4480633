"""mjsvc's rules engine: pure Python, stateless, thread-safe. No I/O, no gRPC."""
