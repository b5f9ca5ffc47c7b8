#pragma once

#define URL_DECL __attribute__((visibility("default")))

namespace urls {

class url_view_base {
 public:
  int size() const { return 0; }
};

class URL_DECL url_base : public url_view_base {
 public:
  url_base& set_host_ipv4(int addr);
  url_base& set_encoded_host(int s);

 private:
  int host_ = 0;
};

}  // namespace urls
