import { chatMessagingApiTest } from './credentialTest';
import { searchTemplates } from './listSearch';
import { getTemplateVariables } from './resourceMapping';

/* The node's editor methods: wired into the node as `methods`. */

export const listSearch = { searchTemplates };
export const resourceMapping = { getTemplateVariables };
export const credentialTest = { chatMessagingApiTest };
