/* hold_lock.c - test helper: holds an exclusive OFD lock on PATH (as a
 * signer updating its state does) until killed; creates READY once it
 * holds it.  Usage: hold_lock PATH READY */
#define _GNU_SOURCE /* F_OFD_SETLK */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: hold_lock PATH READY\n");
        return 2;
    }
    int fd = open(argv[1], O_RDWR);
    struct flock fl;
    memset(&fl, 0, sizeof(fl));
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    if (fd < 0 || fcntl(fd, F_OFD_SETLK, &fl) != 0) {
        perror(argv[1]);
        return 1;
    }
    int r = open(argv[2], O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (r < 0) {
        perror(argv[2]);
        return 1;
    }
    close(r);
    for (;;)
        pause();
}
