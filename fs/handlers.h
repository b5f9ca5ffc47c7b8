// Every FUSE request handler, by the file that holds it: fs/operations.cpp sets them all in one
// table (a read-only mount's, then a writable mount's set over it).
#pragma once

#include <fuse_lowlevel.h>
#include <sys/stat.h>

#include <cstddef>
#include <cstdint>

namespace anchorfs::fs {

// fs/read_operations.cpp: a read-only mount's, most of them a writable mount's too.
void op_init(void* userdata, fuse_conn_info* conn);
void op_lookup(fuse_req_t req, fuse_ino_t parent, const char* name);
void op_getattr(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi);
void op_readlink(fuse_req_t req, fuse_ino_t ino);
void op_open(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi);
void op_opendir(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi);
void op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, fuse_file_info* fi);
void op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, fuse_file_info* fi);
void op_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, fuse_file_info* fi);
void op_statfs(fuse_req_t req, fuse_ino_t ino);
void op_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup);
void op_forget_multi(fuse_req_t req, size_t count, fuse_forget_data* forgets);

// fs/write_reads.cpp: a writable mount's own init, getattr, open and read (writers' handles,
// files written in place, stages' sizes).
void op_init_writable(void* userdata, fuse_conn_info* conn);
void op_getattr_writable(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi);
void op_open_writable(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi);
void op_read_writable(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
                      fuse_file_info* fi);

// fs/write_files.cpp: a writer's data (write, store on flush, fsync and release).
void op_write(fuse_req_t req, fuse_ino_t ino, const char* buffer, size_t size, off_t off,
              fuse_file_info* fi);
void op_flush(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi);
void op_fsync(fuse_req_t req, fuse_ino_t ino, int datasync, fuse_file_info* fi);
void op_release(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi);
void op_fallocate(fuse_req_t req, fuse_ino_t ino, int mode, off_t offset, off_t length,
                  fuse_file_info* fi);

// fs/write_names.cpp: names made, linked, removed and renamed.
void op_create(fuse_req_t req, fuse_ino_t parent, const char* name, mode_t mode,
               fuse_file_info* fi);
void op_mkdir(fuse_req_t req, fuse_ino_t parent, const char* name, mode_t mode);
void op_mknod(fuse_req_t req, fuse_ino_t parent, const char* name, mode_t mode, dev_t rdev);
void op_symlink(fuse_req_t req, const char* target, fuse_ino_t parent, const char* name);
void op_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t new_parent, const char* new_name);
void op_unlink(fuse_req_t req, fuse_ino_t parent, const char* name);
void op_rmdir(fuse_req_t req, fuse_ino_t parent, const char* name);
void op_rename(fuse_req_t req, fuse_ino_t parent, const char* name, fuse_ino_t new_parent,
               const char* new_name, unsigned flags);

// fs/write_attributes.cpp: size (truncate), mode, owner and times.
void op_setattr(fuse_req_t req, fuse_ino_t ino, struct stat* attr, int to_set,
                fuse_file_info* fi);

// fs/write_xattrs.cpp: user.* extended attributes, and the mount point's settled attribute.
void op_setxattr(fuse_req_t req, fuse_ino_t ino, const char* name, const char* value,
                 size_t size, int flags);
void op_getxattr(fuse_req_t req, fuse_ino_t ino, const char* name, size_t size);
void op_listxattr(fuse_req_t req, fuse_ino_t ino, size_t size);
void op_removexattr(fuse_req_t req, fuse_ino_t ino, const char* name);

}  // namespace anchorfs::fs
