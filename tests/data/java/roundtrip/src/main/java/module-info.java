/** The example module. */
module com.example {
  requires java.base;
  exports com.example.shapes;
}
