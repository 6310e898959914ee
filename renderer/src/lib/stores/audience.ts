/**
 * The screens that want one kind of event while they are open (an Activity view, an export under
 * way): the session's router tells them, in the order they joined. Leaving returns nothing to do.
 */
export class Audience<E> {
  private readonly members = new Set<(event: E) => void>();

  /** Joins; returns the function that leaves. */
  join(member: (event: E) => void): () => void {
    this.members.add(member);
    return () => {
      this.members.delete(member);
    };
  }

  tell(event: E): void {
    for (const member of [...this.members]) member(event);
  }
}
