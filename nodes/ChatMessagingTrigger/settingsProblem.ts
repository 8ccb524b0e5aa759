/*
 * What a setting the trigger cannot trust is reported as. Its own file because both the secret's rules
 * (secret.ts) and the reading of every setting (settings.ts) say it, and settings.ts uses secret.ts.
 */
export interface SettingsProblem {
	/** Short, for the caller's answer and the log. Never contains the secret. */
	reason: string;
	/** Full sentence for the editor: what is wrong and how to fix it. */
	message: string;
}
