-- JIT compilation only adds noise to an I/O experiment (--jit keeps it).
SET jit = off;
