export interface Identified {
  id(): string;
}

export interface Named extends Identified {
  name(): string;
}

export abstract class Entity implements Identified {
  abstract id(): string;

  describe(): string {
    return this.id() + this.label();
  }

  protected label(): string {
    return 'entity';
  }
}
