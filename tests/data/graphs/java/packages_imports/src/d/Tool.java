package d;

public class Tool {
  public void use() {}
}
