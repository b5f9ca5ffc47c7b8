package zoo;

public abstract class Animal implements Named {
  public abstract String sound();

  public String name() {
    return "animal";
  }
}
