import { z } from 'zod';

import { contact } from './fields';

/* Bulk contact creation on `POST /subscribers` (docs/service-contract.md [S §2]). */

/** Create Many's body: a JSON array of contacts. */
export const createContactsBody = z.array(contact).min(1, 'must hold at least one contact');
export type ContactBody = z.infer<typeof contact>;
