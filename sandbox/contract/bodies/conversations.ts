/*
 * What a conversation is in the stand-in's terms: its statuses and last activity, as
 * docs/openapi.yaml (ConversationStatus, listConversations' `activity_type`) names them.
 */

export type ConversationStatus = 'open' | 'pending' | 'awaiting_customer_response' | 'closed';
export type ActivityType = 'assignment' | 'escalation' | 'message' | 'status_change';
