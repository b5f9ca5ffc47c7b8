#pragma once

#include "url_base.hpp"

namespace urls {

class URL_DECL url final : public url_base {
 public:
  url& set_host_ipv4(int addr) {
    url_base::set_host_ipv4(addr);
    return *this;
  }
};

}  // namespace urls
