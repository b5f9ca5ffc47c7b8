// Copying a record out of the store's map into memory of the process's own.
#pragma once

#include <string>
#include <string_view>

namespace anchorfs::cache {

// `bytes` copied into a new string. A record of many megabytes (a large tree's rendered view) is
// copied into memory backed by huge pages where the kernel has them to give.
std::string copy_record(std::string_view bytes);

}  // namespace anchorfs::cache
