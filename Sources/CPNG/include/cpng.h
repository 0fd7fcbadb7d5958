#pragma once
int cpng_placeholder(void);
