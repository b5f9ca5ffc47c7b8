import { User } from '@models/user';
import type { Named } from '@models/entity';

export class UserService {
  private readonly cache = new Map<string, User>();
  private current: User;

  constructor(private readonly fallback: User) {
    this.current = User.guest();
  }

  greet(named: Named, user: User, anything: any): string {
    anything.name();
    named.name();
    return user.name() + this.current.describe() + this.fallback.id();
  }

  lookup(key: string): User | undefined {
    return this.cache.get(key);
  }
}
