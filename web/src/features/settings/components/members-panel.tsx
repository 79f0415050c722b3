/** `Members`: placeholder until the members routes (GET/POST/PATCH/DELETE /members) are in the API types. */
export function MembersPanel() {
  return (
    <section aria-labelledby="members-heading">
      <h2 id="members-heading">Members</h2>
      <p className="empty">Members are on their way.</p>
    </section>
  );
}
