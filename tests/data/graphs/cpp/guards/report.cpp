namespace seq {
void report(int code) { (void)code; }
}  // namespace seq
