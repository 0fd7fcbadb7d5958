#ifndef CSPAWN_H
#define CSPAWN_H

#include <spawn.h>
#include <sys/types.h>

/// pipe2(fds, O_CLOEXEC): both ends close-on-exec from the moment they exist, so no child started meanwhile by
/// another thread inherits them. 0, or -1 with errno.
int cspawn_pipe_cloexec(int fds[2]);

/// pidfd_open(pid, 0) (Linux 5.3): a descriptor that becomes readable when the process ends. -1 with errno
/// (ENOSYS elsewhere).
int cspawn_pidfd_open(pid_t pid);

/// posix_spawn_file_actions_addclosefrom_np(actions, from) (glibc 2.34): the child closes every descriptor from
/// `from` up before exec. 0, or an error number (ENOSYS where glibc has no such action).
int cspawn_file_actions_addclosefrom(posix_spawn_file_actions_t *actions, int from);

#endif
