// The low-level operation tables, every handler set in this one place: a read-only mount's, and
// a writable mount's, which is the read-only set with the writable handlers registered over it.
#include <fuse_lowlevel.h>

#include <cerrno>

#include "fs/handlers.h"
#include "fs/server_state.h"

namespace anchorfs::fs {
namespace {

// Every operation that would change something, in a read-only mount.
void refuse(fuse_req_t req) {
  state_of(req);
  fuse_reply_err(req, EROFS);
}

fuse_lowlevel_ops read_only_operations() {
  fuse_lowlevel_ops ops{};
  ops.init = op_init;
  ops.lookup = op_lookup;
  ops.getattr = op_getattr;
  ops.readlink = op_readlink;
  ops.open = op_open;
  ops.read = op_read;
  ops.opendir = op_opendir;
  ops.readdir = op_readdir;
  ops.readdirplus = op_readdirplus;
  ops.statfs = op_statfs;
  ops.forget = op_forget;
  ops.forget_multi = op_forget_multi;
  ops.setattr = [](fuse_req_t req, fuse_ino_t, struct stat*, int, fuse_file_info*) {
    refuse(req);
  };
  ops.mknod = [](fuse_req_t req, fuse_ino_t, const char*, mode_t, dev_t) { refuse(req); };
  ops.mkdir = [](fuse_req_t req, fuse_ino_t, const char*, mode_t) { refuse(req); };
  ops.unlink = [](fuse_req_t req, fuse_ino_t, const char*) { refuse(req); };
  ops.rmdir = [](fuse_req_t req, fuse_ino_t, const char*) { refuse(req); };
  ops.symlink = [](fuse_req_t req, const char*, fuse_ino_t, const char*) { refuse(req); };
  ops.rename = [](fuse_req_t req, fuse_ino_t, const char*, fuse_ino_t, const char*, unsigned) {
    refuse(req);
  };
  ops.link = [](fuse_req_t req, fuse_ino_t, fuse_ino_t, const char*) { refuse(req); };
  ops.write = [](fuse_req_t req, fuse_ino_t, const char*, size_t, off_t, fuse_file_info*) {
    refuse(req);
  };
  ops.setxattr = [](fuse_req_t req, fuse_ino_t, const char*, const char*, size_t, int) {
    refuse(req);
  };
  ops.removexattr = [](fuse_req_t req, fuse_ino_t, const char*) { refuse(req); };
  ops.create = [](fuse_req_t req, fuse_ino_t, const char*, mode_t, fuse_file_info*) {
    refuse(req);
  };
  ops.fallocate = [](fuse_req_t req, fuse_ino_t, int, off_t, off_t, fuse_file_info*) {
    refuse(req);
  };
  // Not set on purpose: flush, release, releasedir, fsync, access, getxattr and listxattr.
  // libfuse answers them with ENOSYS and the kernel stops sending them.
  return ops;
}

fuse_lowlevel_ops writable_operations() {
  fuse_lowlevel_ops ops = read_only_operations();
  // Serving what a read-only mount serves, where writers make a difference.
  ops.init = op_init_writable;
  ops.getattr = op_getattr_writable;
  ops.open = op_open_writable;
  ops.read = op_read_writable;
  // A writer's data.
  ops.write = op_write;
  ops.flush = op_flush;
  ops.fsync = op_fsync;
  ops.release = op_release;
  ops.fallocate = op_fallocate;
  // Names.
  ops.create = op_create;
  ops.mkdir = op_mkdir;
  ops.mknod = op_mknod;
  ops.symlink = op_symlink;
  ops.link = op_link;
  ops.unlink = op_unlink;
  ops.rmdir = op_rmdir;
  ops.rename = op_rename;
  // Attributes.
  ops.setattr = op_setattr;
  ops.setxattr = op_setxattr;
  ops.getxattr = op_getxattr;
  ops.listxattr = op_listxattr;
  ops.removexattr = op_removexattr;
  return ops;
}

}  // namespace

const fuse_lowlevel_ops& operations(bool writable) {
  static const fuse_lowlevel_ops read_only = read_only_operations();
  static const fuse_lowlevel_ops read_write = writable_operations();
  return writable ? read_write : read_only;
}

}  // namespace anchorfs::fs
