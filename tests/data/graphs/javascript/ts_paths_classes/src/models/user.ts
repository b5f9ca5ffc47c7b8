import { Entity, Named } from './entity.js';

/** A user of the system. */
export class User extends Entity implements Named {
  constructor(private readonly handle: string) {
    super();
  }

  id(): string {
    return this.handle;
  }

  name(): string {
    return super.describe();
  }

  static guest(): User {
    return new User('guest');
  }
}
