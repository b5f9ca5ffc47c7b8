#include "../url.hpp"

namespace urls {

url_base& url_base::set_host_ipv4(int addr) {
  host_ = addr + size();
  return *this;
}

url_base& url_base::set_encoded_host(int s) { return set_host_ipv4(s); }

}  // namespace urls
