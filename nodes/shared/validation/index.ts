/*
 * Reading what users type, split by job: every reader throws InvalidParameter (named by the editor's
 * label) before anything is sent. Operations import from here, never from the files behind it.
 */
export { InvalidParameter, describeType, toNodeOperationError } from './invalidParameter';
export {
	answeredNumberDigits,
	normaliseBusinessPhoneNumber,
	normalisePhoneNumber,
} from './phoneNumbers';
export {
	checkKeyName,
	inexactNumberReason,
	isExactNumber,
	optionalText,
	requiredText,
	valueAsText,
} from './text';
export type { IdentifierKind } from './identifiers';
export { readIdentifier } from './identifiers';
export {
	HEADER_MEDIA_FILE_NAME,
	HEADER_MEDIA_URL,
	readHeaderMediaFileName,
	readHeaderMediaUrl,
	readHttpUrl,
} from './headerMedia';
export { normaliseTimeZone } from './timeZones';
export { checkBody } from './bodyCheck';
export { NOT_JSON, parseJsonNumbersAsText, parseJsonText } from './jsonText';
