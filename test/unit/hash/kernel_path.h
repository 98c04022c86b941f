/* kernel_path.h - which table kernels the tests run on this CPU path. */
#ifndef FASTSIG_TEST_KERNEL_PATH_H
#define FASTSIG_TEST_KERNEL_PATH_H

/* 1 when fs_cpu_features() (the CPU narrowed by FASTSIG_CPU) allows a
 * kernel that needs cpu; else 0, with a note printed once per kernel name
 * (kind: "keccak", "sha512", ...). */
int kernel_on_path(const char *kind, const char *name, unsigned cpu);

#endif
