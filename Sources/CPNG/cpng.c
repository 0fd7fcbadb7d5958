int cpng_placeholder(void) { return 0; }
