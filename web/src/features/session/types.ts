// Wire objects of docs/api-accounts.md.
export interface User {
  id: number;
  name: string;
  first_name: string;
  last_name: string;
  username: string;
  email: string;
  is_staff: boolean;
  is_superuser: boolean;
  last_login: string | null;
  organizations: { id: number; name: string }[];
  current_organization: number | null;
  settings: { agreed_terms: string; agreed_privacy: string; account_activation_date: string | null };
}

export interface ProjectSummary {
  id: number;
  name: string;
  description: string;
  project_state: string;
  project_type: string;
  frontend_color: string;
  frontend_icon: string;
  total_responses: number;
  last_response: string | null;
  time_updated: string;
}

export interface Organization {
  id: number;
  name: string;
  description: string;
  projects?: number[];
  project_details?: ProjectSummary[];
  flagged_features?: string[];
  /** What the caller may do in this workspace (spec 000 §6 workspace permissions). */
  permissions?: string[];
}

export interface LoginReply {
  access: string;
  refresh: string;
  user: User;
  organization: Organization | null;
  /** A password sign-in's device token (docs/security.md, "known devices"); kept by sessionApi's login. */
  device?: string;
}

/** An invitation of this account to a workspace, not answered yet (GET accounts/invitations/). */
export interface Invitation {
  organization: { id: number; name: string };
  invited_by: string;
  time: string;
  accepted: boolean;
}
