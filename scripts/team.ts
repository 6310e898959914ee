/** `npm run team -- …`: setting up a team's PostgreSQL store (docs/team.md). */
import { runTeamAdmin } from '../electron/core/team/admin';

runTeamAdmin(process.argv.slice(2), {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  env: process.env,
}).then((code) => process.exit(code));
