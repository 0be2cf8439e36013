import { dispatcher } from '#functions/dispatch';
import { handler as confirmUser } from './confirm-user.ts';
import { handler as deleteUser } from './delete-user.ts';
import { handler as getUser } from './get-user.ts';
import { handler as getUsers } from './get-users.ts';
import { handler as patchUser } from './patch-user.ts';
import { handler as postUser } from './post-user.ts';
import { handler as putUser } from './put-user.ts';
import { usersRoutes } from './routes.ts';

/** The users family's one Lambda: routes each request to its endpoint's handler (routes.ts). */
export const handler = dispatcher(usersRoutes, {
  'users/get-users': getUsers,
  'users/get-user': getUser,
  'users/post-user': postUser,
  'users/put-user': putUser,
  'users/patch-user': patchUser,
  'users/delete-user': deleteUser,
  'users/confirm-user': confirmUser,
});
