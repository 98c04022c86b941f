/* watch_open.c - test helper: runs CMD and fails if PATH was opened,
 * read or written meanwhile (inotify), so a test can show that a command
 * leaves a file alone.  Usage: watch_open PATH CMD [ARG...]
 * Exit status: CMD's, or 99 (with a line on stderr) if PATH was touched. */
#include <stdio.h>
#include <sys/inotify.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: watch_open PATH CMD [ARG...]\n");
        return 2;
    }
    int in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (in < 0 || inotify_add_watch(in, argv[1], IN_OPEN | IN_ACCESS | IN_MODIFY) < 0) {
        perror(argv[1]);
        return 2;
    }
    pid_t pid = fork();
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        perror(argv[2]);
        _exit(127);
    }
    int status;
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return 2;
    char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
    ssize_t n = read(in, buf, sizeof(buf));
    if (n > 0) {
        const struct inotify_event *e = (const void *)buf;
        fprintf(stderr, "%s was %s\n", argv[1],
                e->mask & IN_OPEN ? "opened" : e->mask & IN_ACCESS ? "read" : "written");
        return 99;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}
