#pragma once

#define BUF_NOEXCEPT noexcept
#define BUF_OVERRIDE override

namespace io {

class base_buf {
 public:
  virtual ~base_buf() = default;
  virtual int sync() { return 0; }
};

class line_buf : public base_buf {
 public:
  int sync() BUF_OVERRIDE { return flush(2) + pending(); }
  int flush(int n) const BUF_NOEXCEPT { return n + pending(); }
  int& last() BUF_NOEXCEPT { return last_; }
  int pending() const;
  void reset();

 private:
  int last_ = 0;
};

int line_buf::pending() const BUF_NOEXCEPT { return last_; }

void line_buf::reset() BUF_NOEXCEPT { last() = flush(0); }

inline int drain(line_buf& b) BUF_NOEXCEPT { return b.sync() + b.pending(); }

// Neither is a declarator evident enough: `count(n)` could be an initializer, `size` has no
// parameters at all. The calls inside them have no caller.
inline int count(n) BUF_NOEXCEPT { return drain(n); }
inline int size BUF_NOEXCEPT { return drain(size); }

}  // namespace io
