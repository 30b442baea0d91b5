// Generated from the gateway's OpenAPI document (/api/docs/json) by web/scripts/gen-api.mjs with openapi-typescript.
// Do not edit: change the route schemas (gateway/src/schemas/) and run `pnpm --filter @fieldwork/web run gen:api`.
export interface paths {
    "/api/accounts/email-check/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Is this email address taken? */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            email?: string;
                            exists?: boolean;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/invitations/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The invitations to workspaces the caller has not answered */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count?: number;
                            results?: ({
                                /** @description After an answer: whether the caller is now a member */
                                accepted?: boolean;
                                /** @description Who invited ('' when unknown) */
                                invited_by?: string;
                                organization?: {
                                    id?: number;
                                    name?: string;
                                } & {
                                    [key: string]: unknown;
                                };
                                time?: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/invitations/{id}/accept/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Accept an invitation to a workspace */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description Nothing is read from the body: send none, or {}. */
            requestBody?: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    } | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description After an answer: whether the caller is now a member */
                            accepted?: boolean;
                            /** @description Who invited ('' when unknown) */
                            invited_by?: string;
                            organization?: {
                                id?: number;
                                name?: string;
                            } & {
                                [key: string]: unknown;
                            };
                            time?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/invitations/{id}/decline/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Decline an invitation to a workspace */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description Nothing is read from the body: send none, or {}. */
            requestBody?: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    } | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description After an answer: whether the caller is now a member */
                            accepted?: boolean;
                            /** @description Who invited ('' when unknown) */
                            invited_by?: string;
                            organization?: {
                                id?: number;
                                name?: string;
                            } & {
                                [key: string]: unknown;
                            };
                            time?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/logout/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": {
                        refresh?: string;
                    } | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/signup/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create an account and the workspace it owns (where the deployment allows sign-up), signed in */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email: string;
                        name: string;
                        newOrgName: string;
                        orgDescription?: string;
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            access?: string;
                            /** @description Keep it and send it with the next sign-in to this account: a known device is never slowed down by others */
                            device?: string;
                            organization?: {
                                [key: string]: unknown;
                            } | null;
                            refresh?: string;
                            user?: components["schemas"]["User"] | (never | null);
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/user/{email}/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Mail a password reset link */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    email: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail?: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Set a password from a mailed link ({nonce, password}), or change it ({new_password, old_password}, logged in) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    email: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        firebase_id?: string;
                        firebase_token?: string;
                        new_password?: string;
                        nonce?: string;
                        old_password?: string;
                        password?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/user/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["User"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        first_name?: string;
                        last_name?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["User"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/accounts/user/{id}/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Accept the terms or the privacy policy */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        agreed_privacy?: string;
                        agreed_terms?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["User"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/api-token-auth/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Log in with username and password */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The device token an earlier sign-in to this account answered (docs/security.md: known devices) */
                        device?: string;
                        password: string;
                        username: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            access?: string;
                            /** @description Keep it and send it with the next sign-in to this account: a known device is never slowed down by others */
                            device?: string;
                            organization?: {
                                [key: string]: unknown;
                            } | null;
                            refresh?: string;
                            user?: components["schemas"]["User"] | (never | null);
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/api-token-refresh/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Exchange a refresh token (rotated) for a new access token */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        refresh: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            access?: string;
                            refresh?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/api/v0/organization/{id}/api_keys/revoke/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        prefix?: string;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            created?: string;
                            created_by?: number;
                            id?: number;
                            last_used?: string;
                            name?: string;
                            prefix?: string;
                            /** @description '' while the key works */
                            revoked?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/api/v1/oauth/authorize/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start a sign-in at an identity provider: the provider's URL for the S256 challenge of a PKCE verifier */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        code_challenge: string;
                        identity_provider: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Where to send the browser: the provider's sign-in */
                            authorization_url?: string;
                            /** @description The state the provider sends back; the callback sends it with the code */
                            state?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/api/v1/oauth/code/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Finish a sign-in at an identity provider: the provider's code, the PKCE verifier and the state */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        code: string;
                        code_verifier: string;
                        identity_provider: string;
                        iss?: string;
                        state?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            access?: string;
                            /** @description Keep it and send it with the next sign-in to this account: a known device is never slowed down by others */
                            device?: string;
                            organization?: {
                                [key: string]: unknown;
                            } | null;
                            refresh?: string;
                            user?: components["schemas"]["User"] | (never | null);
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/api/v1/oauth/providers/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The identity providers people may sign in with (and whether sign-up is open) */
        get: {
            parameters: {
                query?: {
                    /** @description With an email, also the providers kept for its domain */
                    email?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count?: number;
                            results?: ({
                                id?: string;
                                name?: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                            /** @description Whether people may create an account on this server */
                            signup_enabled?: boolean;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/api/v1/organization-user/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Invite an address to a workspace: the same answer whether an account uses it or not (a password given is not used) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        billing_admin?: boolean;
                        email: string;
                        first_name?: string;
                        last_name?: string;
                        organization: number;
                        owner?: boolean;
                        password?: string;
                        project_admin?: boolean;
                        user_admin?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["OrganizationUser"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/api/v1/project-user/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        collector?: boolean;
                        data_manager?: boolean;
                        email?: string | null;
                        first_name?: string | null;
                        group?: number | null;
                        last_name?: string | null;
                        password?: string | null;
                        project_admin?: boolean;
                        project_id?: number | null;
                        project_owner?: boolean;
                        projectId?: number | null;
                        read_sites?: number[] | null;
                        researcher?: boolean;
                        site?: number | null;
                        staff_admin?: boolean;
                        team?: number | null;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ProjectUser"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/collect/{token}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    token: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        email?: string | null;
                        fingerprint?: string | null;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description null: an anonymous link that never expires */
                            expiry_date?: string | null;
                            proceed_unauthenticated?: boolean;
                            project_details?: {
                                [key: string]: unknown;
                            };
                            sampler_schemas?: ({
                                id?: number;
                                level?: number;
                                name?: string;
                                version?: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                            token?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/collect/survey/{token}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    token: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description null: an anonymous link that never expires */
                            expiry_date?: string | null;
                            proceed_unauthenticated?: boolean;
                            project_details?: {
                                [key: string]: unknown;
                            };
                            sampler_schemas?: ({
                                id?: number;
                                level?: number;
                                name?: string;
                                version?: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                            token?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/error-reports/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        hashId?: string;
                        location?: string;
                        message?: string;
                        severity?: string;
                        stack?: string;
                        user?: string | number | Record<string, never> | (never | null);
                        userAgent?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            reference?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exports/jobs/{jobId}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    jobId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Job"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exports/jobs/{jobId}/cancel/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    jobId: string;
                };
                cookie?: never;
            };
            /** @description Nothing is read from the body: send none, or {}. */
            requestBody?: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    } | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Job"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/item-results/{token}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    token: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        /** @enum {string|null} */
                        aggregator?: "sum" | "avg" | "count" | "min" | "max" | "stddev" | "var" | null;
                        block?: number | null;
                        buckets?: number;
                        /** @description A list of {by: site|group|team|collector|question|period, item_id?, period?, limit? (1-100, default 50)}. */
                        comparisons?: Record<string, never>[] | null;
                        filters?: unknown;
                        item_ids?: number[];
                        schema?: number | null;
                        time_zone?: string | null;
                        timing_column?: string | null;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/languages/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count?: number;
                            results?: ({
                                iso_code_1?: string;
                                name?: string;
                                native_name?: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/legal/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The terms of service and the privacy policy, each with the version a user accepts */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            privacy?: {
                                /** @description The deployment's text (plain text, paragraphs separated by blank lines) */
                                text?: string;
                                /** @description The version a user accepts (spec 000 §9) */
                                version?: string;
                            } & {
                                [key: string]: unknown;
                            };
                            terms?: {
                                /** @description The deployment's text (plain text, paragraphs separated by blank lines) */
                                text?: string;
                                /** @description The version a user accepts (spec 000 §9) */
                                version?: string;
                            } & {
                                [key: string]: unknown;
                            };
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organization-match/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        org_details?: string;
                        org_email: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            match?: boolean;
                            organizations?: ({
                                id?: number;
                                name?: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organization/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count?: number;
                            results?: components["schemas"]["Organization"][];
                        };
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        address?: string;
                        description?: string;
                        flagged_features?: string[] | null;
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Organization"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organization/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Organization"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        address?: string;
                        description?: string;
                        flagged_features?: string[] | null;
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Organization"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organization/{id}/advanced_projects/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count?: number;
                            results?: components["schemas"]["Project"][];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organization/{id}/api_keys/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            results?: ({
                                created?: string;
                                created_by?: number;
                                id?: number;
                                last_used?: string;
                                name?: string;
                                prefix?: string;
                                /** @description '' while the key works */
                                revoked?: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organization/{id}/api_keys/create/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        name?: string;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            created?: string;
                            created_by?: number;
                            id?: number;
                            key?: string;
                            last_used?: string;
                            name?: string;
                            prefix?: string;
                            /** @description '' while the key works */
                            revoked?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organization/{id}/audit/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace audit log (owners only), newest first */
        get: {
            parameters: {
                query?: {
                    /** @description Only events of this kind */
                    event?: string;
                    /** @description Page number (0 or none: the first) */
                    page?: string;
                    /** @description Events a page, at most 999 (0 or none: the default) */
                    page_size?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count?: number;
                            results?: ({
                                /** @description null: no one known (a failed login) */
                                actor_user_id?: number | null;
                                /** @description The particulars (never a secret) */
                                details?: {
                                    [key: string]: unknown;
                                };
                                event?: string;
                                id?: number;
                                ip?: string;
                                target?: string;
                                time?: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organization/{id}/folders/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count?: number;
                            results?: ({
                                /** @description The parent folder; 0 at the workspace root */
                                folder?: number;
                                folder_id?: number;
                                id?: number;
                                name?: string;
                                project?: number;
                                /** @description folder or project */
                                type?: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        folder?: number | null;
                        name?: string;
                        project?: number | null;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The parent folder; 0 at the workspace root */
                            folder?: number;
                            folder_id?: number;
                            id?: number;
                            name?: string;
                            project?: number;
                            /** @description folder or project */
                            type?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organization/{id}/folders/{folderId}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    folderId: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        folder?: number | null;
                        name?: string | null;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description The parent folder; 0 at the workspace root */
                            folder?: number;
                            folder_id?: number;
                            id?: number;
                            name?: string;
                            project?: number;
                            /** @description folder or project */
                            type?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    folderId: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Done: no content. */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organization/{id}/integrations/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            results?: ({
                                id?: number;
                                integration_type?: string;
                                organization?: number;
                                projects?: number[];
                                time_created?: string;
                                token?: string;
                                verified?: boolean;
                            } & {
                                [key: string]: unknown;
                            })[];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organization/{id}/integrations/create/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        integration_type?: string;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id?: number;
                            integration_type?: string;
                            organization?: number;
                            projects?: number[];
                            time_created?: string;
                            token?: string;
                            verified?: boolean;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organization/{id}/integrations/projects/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        projects?: number[];
                        token?: string;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id?: number;
                            integration_type?: string;
                            organization?: number;
                            projects?: number[];
                            time_created?: string;
                            token?: string;
                            verified?: boolean;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organization/{id}/integrations/verify/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        token?: string;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id?: number;
                            integration_type?: string;
                            organization?: number;
                            projects?: number[];
                            time_created?: string;
                            token?: string;
                            verified?: boolean;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organization/{id}/logo/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "multipart/form-data": {
                        /**
                         * Format: binary
                         * @description The file, at most 2 MB (413 beyond).
                         */
                        file: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            content_type?: string;
                            file_id?: string;
                            filename?: string;
                            size?: number;
                            url?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organization/{id}/organization-users/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description Page number, from 1 */
                    page?: string;
                    /** @description Members a page (0 or none: the default; over the cap: capped) */
                    page_size?: string;
                    /** @description Name, username or email contains */
                    search?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description How many members match, over every page */
                            count?: number;
                            /** @description Says that the page size was capped, when it was */
                            detail?: string;
                            page?: number;
                            /** @description The page size used */
                            page_size?: number;
                            /** @description The page size asked for was over the cap */
                            page_size_capped?: boolean;
                            results?: ({
                                billing_admin?: boolean;
                                email?: string;
                                first_name?: string;
                                id?: number;
                                invited?: boolean;
                                is_active?: boolean;
                                last_name?: string;
                                name?: string;
                                organization?: number;
                                orguser_id?: number;
                                owner?: boolean;
                                project_admin?: boolean;
                                user?: number;
                                user_admin?: boolean;
                                username?: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organization/{id}/organization-users/{userId}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Done: no content. */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        billing_admin?: boolean;
                        first_name?: string | null;
                        last_name?: string | null;
                        project_admin?: boolean;
                        user_admin?: boolean;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            billing_admin?: boolean;
                            email?: string;
                            first_name?: string;
                            id?: number;
                            invited?: boolean;
                            is_active?: boolean;
                            last_name?: string;
                            name?: string;
                            organization?: number;
                            orguser_id?: number;
                            owner?: boolean;
                            project_admin?: boolean;
                            user?: number;
                            user_admin?: boolean;
                            username?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/organization/{id}/purges/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count?: number;
                            results?: ({
                                counts?: {
                                    [key: string]: number;
                                };
                                error?: string;
                                finished_at?: string | null;
                                name?: string;
                                project_id?: number;
                                requested_at?: string | null;
                                /** @enum {string} */
                                state?: "none" | "running" | "done" | "failed";
                            } & {
                                [key: string]: unknown;
                            })[];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organization/{id}/reference-projects/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count?: number;
                            results?: components["schemas"]["Project"][];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project-user/bulk/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        parsedList?: ({
                            email?: string | number | (never | null);
                            first_name?: string | number | (never | null);
                            group?: string | number | (never | null);
                            last_name?: string | number | (never | null);
                            password?: string | number | (never | null);
                            role?: string | number | (never | null);
                            site?: string | number | (never | null);
                            team?: string | number | (never | null);
                        } & {
                            [key: string]: unknown;
                        })[];
                        project_id?: number | null;
                        projectId?: number | null;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            added?: number;
                            failed?: number;
                            rows?: ({
                                email?: string;
                                errors?: string[];
                                /** @description 1-based row of the list */
                                row?: number;
                                /** @description added, updated or failed */
                                status?: string;
                                user_id?: number;
                            } & {
                                [key: string]: unknown;
                            })[];
                            updated?: number;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project-users/permissions/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        permissions?: string[] | null;
                        project_id?: number | null;
                        projectId?: number | null;
                        read_sites?: number[] | null;
                        user_ids?: number[];
                        userIds?: number[];
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count?: number;
                            results?: components["schemas"]["ProjectUser"][];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        permissions?: string[] | null;
                        project_id?: number | null;
                        projectId?: number | null;
                        read_sites?: number[] | null;
                        user_ids?: number[];
                        userIds?: number[];
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count?: number;
                            results?: components["schemas"]["ProjectUser"][];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        description?: string | null;
                        folder_id?: number | null;
                        frontend_color?: string | null;
                        frontend_icon?: string | null;
                        /** @description A GeoJSON point {"type": "Point", "coordinates": [lng, lat]} or {"latitude", "longitude"}; anything else: 400 "Geotag is required". */
                        geotag?: unknown;
                        logo?: string | null;
                        name?: string;
                        organization_pk?: number | null;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Project"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Project"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        current_collection_round_start?: string | null;
                        date_end?: string | null;
                        description?: string | null;
                        folder_id?: number | null;
                        frontend_color?: string | null;
                        frontend_icon?: string | null;
                        /** @description A GeoJSON point {"type": "Point", "coordinates": [lng, lat]} or {"latitude", "longitude"}; anything else: 400 "Geotag is required". */
                        geotag?: unknown;
                        goal_count?: number | null;
                        is_entity?: boolean;
                        logo?: string | null;
                        name?: string;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Project"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        current_collection_round_start?: string | null;
                        date_end?: string | null;
                        description?: string | null;
                        folder_id?: number | null;
                        frontend_color?: string | null;
                        frontend_icon?: string | null;
                        /** @description A GeoJSON point {"type": "Point", "coordinates": [lng, lat]} or {"latitude", "longitude"}; anything else: 400 "Geotag is required". */
                        geotag?: unknown;
                        goal_count?: number | null;
                        is_entity?: boolean;
                        logo?: string | null;
                        name?: string;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Project"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/project/{id}/advanced_results/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        description?: string | null;
                        display_type?: string | null;
                        edit_mode?: boolean;
                        editMode?: boolean;
                        editor_state?: unknown;
                        formula?: string;
                        name?: string;
                        show_on_project_summary?: boolean;
                        show_on_site_summary?: boolean;
                        threshold_value_lower?: number | null;
                        threshold_value_upper?: number | null;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AdvancedResult"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/advanced_results/{arId}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    arId: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        description?: string | null;
                        display_type?: string | null;
                        edit_mode?: boolean;
                        editMode?: boolean;
                        editor_state?: unknown;
                        formula?: string;
                        name?: string;
                        show_on_project_summary?: boolean;
                        show_on_site_summary?: boolean;
                        threshold_value_lower?: number | null;
                        threshold_value_upper?: number | null;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AdvancedResult"];
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    arId: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Done: no content. */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/advanced_results/edit_list/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            results?: components["schemas"]["AdvancedResult"][];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/advanced_results/list/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        /** @enum {string|null} */
                        aggregator?: "sum" | "avg" | "count" | "min" | "max" | "stddev" | "var" | null;
                        block?: number | null;
                        buckets?: number;
                        /** @description A list of {by: site|group|team|collector|question|period, item_id?, period?, limit? (1-100, default 50)}. */
                        comparisons?: Record<string, never>[] | null;
                        filters?: unknown;
                        item_ids?: number[];
                        schema?: number | null;
                        time_zone?: string | null;
                        timing_column?: string | null;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/aggregator/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        project_aggregator?: string;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Project"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/coded_csv/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description The language of the labels (ISO 639-1). */
                    lang?: string;
                    /** @description Repeats: wide (default) writes a column per repeat instance (a long table past 20); long writes a row per response and instance. */
                    layout?: "wide" | "long";
                    /** @description A lookup profile: only that respondent’s responses. */
                    profile?: string;
                    /** @description The schema to export (an id; none: the first level). */
                    schema?: string;
                    /** @description 0: answer at once with the job; 1 (or none): wait up to 10 s for the file. */
                    wait?: "0" | "1";
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            job?: components["schemas"]["Job"];
                            url?: string | null;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            job?: components["schemas"]["Job"];
                            /** @enum {object|null} */
                            url?: never | null;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/create-form-from-upload/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        confirm?: boolean;
                        file_id?: string | null;
                        file_identifier?: string | null;
                        schema?: number | null;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            format?: string;
                            levels?: components["schemas"]["SamplerSchema"][];
                            notes?: ({
                                column?: string;
                                message?: string;
                                row?: number;
                                sheet?: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                            questions?: number;
                            schema?: components["schemas"]["SamplerSchema"] | (never | null);
                            summary?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/dictionary_csv/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description The language of the labels (ISO 639-1). */
                    lang?: string;
                    /** @description Repeats: wide (default) writes a column per repeat instance (a long table past 20); long writes a row per response and instance. */
                    layout?: "wide" | "long";
                    /** @description A lookup profile: only that respondent’s responses. */
                    profile?: string;
                    /** @description The schema to export (an id; none: the first level). */
                    schema?: string;
                    /** @description 0: answer at once with the job; 1 (or none): wait up to 10 s for the file. */
                    wait?: "0" | "1";
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            job?: components["schemas"]["Job"];
                            url?: string | null;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            job?: components["schemas"]["Job"];
                            /** @enum {object|null} */
                            url?: never | null;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/disable_postgres/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description Nothing is read from the body: send none, or {}. */
            requestBody?: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    } | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            enabled?: boolean;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/duplicate/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description Nothing is read from the body: send none, or {}. */
            requestBody?: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    } | null;
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Project"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/duplicate/{folderId}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    folderId: string;
                    id: string;
                };
                cookie?: never;
            };
            /** @description Nothing is read from the body: send none, or {}. */
            requestBody?: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    } | null;
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Project"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/export/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: {
                    /** @description The language of the labels (ISO 639-1). */
                    lang?: string;
                    /** @description Repeats: wide (default) writes a column per repeat instance (a long table past 20); long writes a row per response and instance. */
                    layout?: "wide" | "long";
                    /** @description A lookup profile: only that respondent’s responses. */
                    profile?: string;
                    /** @description The schema to export (an id; none: the first level). */
                    schema?: string;
                    /** @description 0: answer at once with the job; 1 (or none): wait up to 10 s for the file. */
                    wait?: "0" | "1";
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description Nothing is read from the body: send none, or {}. */
            requestBody?: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    } | null;
                };
            };
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            job?: components["schemas"]["Job"];
                            /** @enum {object|null} */
                            url?: never | null;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/groups/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        name?: string;
                        site?: number | null;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Group"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/groups/{sub}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    sub: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Done: no content. */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    sub: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        name?: string;
                        site?: number | null;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Group"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/project/{id}/hierarchy/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        is_hierarchical: boolean;
                        project_hierarchy?: ({
                            level?: number;
                            name?: string;
                            schema?: number | null;
                            schema_id?: number | null;
                        } & {
                            [key: string]: unknown;
                        })[] | null;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Project"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/home/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active_sites?: number;
                            collectors?: number;
                            complete_responses?: number;
                            date_end?: string;
                            goal_count?: number;
                            groups?: number;
                            id?: number;
                            incomplete_responses?: number;
                            last_response?: string;
                            name?: string;
                            project_state?: string;
                            project_type?: string;
                            questions?: number;
                            schemas?: number;
                            sites?: number;
                            teams?: number;
                            total_responses?: number;
                            users?: number;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/import/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        data?: ({
                            device_id?: string | null;
                            dropped_columns?: string[] | null;
                            file_identifier?: string | null;
                            import_current?: boolean;
                            label_map?: Record<string, never> | null;
                            lang?: string | null;
                            mapped_columns?: Record<string, never> | null;
                            schema?: number | null;
                            schema_id?: number | null;
                            value_delimiter?: string | null;
                        } & {
                            [key: string]: unknown;
                        }) | null;
                        device_id?: string | null;
                        dropped_columns?: string[] | null;
                        file_identifier?: string | null;
                        import_current?: boolean;
                        label_map?: Record<string, never> | null;
                        lang?: string | null;
                        mapped_columns?: Record<string, never> | null;
                        schema?: number | null;
                        schema_id?: number | null;
                        value_delimiter?: string | null;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            job?: components["schemas"]["Job"];
                            /** @enum {object|null} */
                            url?: never | null;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/import/preview/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        data?: ({
                            device_id?: string | null;
                            dropped_columns?: string[] | null;
                            file_identifier?: string | null;
                            import_current?: boolean;
                            label_map?: Record<string, never> | null;
                            lang?: string | null;
                            mapped_columns?: Record<string, never> | null;
                            schema?: number | null;
                            schema_id?: number | null;
                            value_delimiter?: string | null;
                        } & {
                            [key: string]: unknown;
                        }) | null;
                        device_id?: string | null;
                        dropped_columns?: string[] | null;
                        file_identifier?: string | null;
                        import_current?: boolean;
                        label_map?: Record<string, never> | null;
                        lang?: string | null;
                        mapped_columns?: Record<string, never> | null;
                        schema?: number | null;
                        schema_id?: number | null;
                        value_delimiter?: string | null;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            columns?: ({
                                header?: string;
                                item_id?: number;
                                label?: string;
                                target?: string;
                                target_kind?: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                            /** @description Field errors of the mapping ({} when it is fine) */
                            errors?: unknown;
                            /** @description The questions a column may be mapped to: [{id, code, label, type}] */
                            questions?: unknown;
                            /** @description Problems of each previewed row by column header */
                            row_problems?: unknown;
                            /** @description The first rows of the file as lists of cells */
                            rows?: unknown;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/media/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        content_type?: string;
                        filename?: string;
                        kind?: string;
                        response_id?: string;
                        size?: number;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            expires?: string;
                            key?: string;
                            media_id?: string;
                            upload_url?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/media/{mediaId}/complete/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    mediaId: string;
                };
                cookie?: never;
            };
            /** @description Nothing is read from the body: send none, or {}. */
            requestBody?: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    } | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            content_type?: string;
                            key?: string;
                            media_id?: string;
                            media_uploading_count?: number;
                            signature_uploading_count?: number;
                            size?: number;
                            thumbnail_url?: string;
                            url?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/named_csv/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description The language of the labels (ISO 639-1). */
                    lang?: string;
                    /** @description Repeats: wide (default) writes a column per repeat instance (a long table past 20); long writes a row per response and instance. */
                    layout?: "wide" | "long";
                    /** @description A lookup profile: only that respondent’s responses. */
                    profile?: string;
                    /** @description The schema to export (an id; none: the first level). */
                    schema?: string;
                    /** @description 0: answer at once with the job; 1 (or none): wait up to 10 s for the file. */
                    wait?: "0" | "1";
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            job?: components["schemas"]["Job"];
                            url?: string | null;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            job?: components["schemas"]["Job"];
                            /** @enum {object|null} */
                            url?: never | null;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/open-response/email/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        send_to?: string;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            open?: number;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/performance/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        filters?: {
                            collector?: number[];
                            createdBy?: number[];
                            group?: number[];
                            site?: number[];
                            team?: number[];
                        } | null;
                        page?: number;
                        page_size?: number;
                        /** @enum {string|null} */
                        period?: "day" | "week" | "month" | null;
                        schema?: number | null;
                        time_zone?: string | null;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            by_collector: {
                                count: number;
                                results: {
                                    avg_duration_s: number | null;
                                    collectors: number;
                                    completed: number;
                                    expected: number | null;
                                    first_response: string | null;
                                    id: number;
                                    last_activity: string | null;
                                    last_response: string | null;
                                    median_duration_s: number | null;
                                    name: string;
                                    parent_id: number | null;
                                    percent: number | null;
                                    responses: number;
                                    target: number;
                                }[];
                            };
                            by_site: {
                                count: number;
                                results: {
                                    avg_duration_s: number | null;
                                    collectors: number;
                                    completed: number;
                                    expected: number | null;
                                    first_response: string | null;
                                    id: number;
                                    last_activity: string | null;
                                    last_response: string | null;
                                    median_duration_s: number | null;
                                    name: string;
                                    parent_id: number | null;
                                    percent: number | null;
                                    responses: number;
                                    target: number;
                                }[];
                            };
                            /** @enum {string} */
                            period: "day" | "week" | "month";
                            series: {
                                completed: number;
                                period: string;
                                responses: number;
                            }[];
                            series_truncated: boolean;
                            totals: {
                                collectors: number;
                                completed: number;
                                deleted: number;
                                first_response: string | null;
                                in_progress: number;
                                last_response: string | null;
                                responses: number;
                                sites: number;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/period/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        trend_series_options?: ({
                            aggregator?: string;
                            time_particle?: string;
                            trend_question?: string | number;
                            trend_question_schema?: number | null;
                        } & {
                            [key: string]: unknown;
                        }) | null;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Project"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/postgres/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description Nothing is read from the body: send none, or {}. */
            requestBody?: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    } | null;
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            database?: string;
                            enabled?: boolean;
                            host?: string;
                            password?: string;
                            port?: number;
                            time_created?: string;
                            username?: string;
                            view?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/purge/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            counts?: {
                                [key: string]: number;
                            };
                            error?: string;
                            finished_at?: string | null;
                            name?: string;
                            project_id?: number;
                            requested_at?: string | null;
                            /** @enum {string} */
                            state?: "none" | "running" | "done" | "failed";
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description Nothing is read from the body: send none, or {}. */
            requestBody?: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    } | null;
                };
            };
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            counts?: {
                                [key: string]: number;
                            };
                            error?: string;
                            finished_at?: string | null;
                            name?: string;
                            project_id?: number;
                            requested_at?: string | null;
                            /** @enum {string} */
                            state?: "none" | "running" | "done" | "failed";
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/references/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count?: number;
                            results?: components["schemas"]["Project"][];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        action?: string;
                        id?: number | null;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count?: number;
                            results?: components["schemas"]["Project"][];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/references/{refId}/responses/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    refId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count?: number;
                            results?: components["schemas"]["ReferenceResponse"][];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/response-chunk/filter/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: {
                    /** @description Page number, from 1 */
                    page?: string;
                    /** @description Responses a page (default 50) */
                    page_size?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        currentSamplerSchema?: number | null;
                        filters?: unknown;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count?: number;
                            results?: components["schemas"]["Response"][];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/response/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description At most this many responses (default 5000) */
                    limit?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count?: number;
                            results?: components["schemas"]["Response"][];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        archived?: boolean;
                        /** @description Answers by repeat index, then by item id */
                        data?: {
                            [key: string]: Record<string, never>;
                        };
                        deleted?: boolean;
                        device_id?: string;
                        email?: string;
                        geotag?: {
                            [key: string]: unknown;
                        } | null;
                        group?: number | null;
                        is_marker?: boolean;
                        locked?: boolean;
                        parent_id?: string | null;
                        project?: number;
                        response_id?: string;
                        response_referenced_id?: string | null;
                        sampler_schema?: number;
                        site?: number | null;
                        team?: number | null;
                        /** @description ISO 8601 text or epoch milliseconds */
                        time_completed?: string | number;
                        /** @description ISO 8601 text or epoch milliseconds */
                        time_created?: string | number;
                        /** @description ISO 8601 text or epoch milliseconds */
                        time_updated?: string | number;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            ancestors?: string[];
                            archived?: boolean;
                            children_count?: number;
                            completed?: boolean;
                            /** @description Answers by repeat index, then by item id */
                            data?: {
                                [key: string]: unknown;
                            };
                            deleted?: boolean;
                            device_id?: string;
                            display_name?: string;
                            email?: string;
                            /** @description The GeoJSON point as uploaded, or null */
                            geotag?: unknown;
                            geotag_history?: unknown[];
                            group_id?: number | null;
                            id?: number;
                            is_marker?: boolean;
                            is_valid?: boolean;
                            locked?: boolean;
                            lookup_answers?: {
                                [key: string]: unknown;
                            };
                            media_uploading_count?: number;
                            parent_id?: string | null;
                            project?: number;
                            response_id?: string;
                            response_referenced_id?: string | null;
                            sampler_schema?: number;
                            signature_uploading_count?: number;
                            site_id?: number | null;
                            team_id?: number | null;
                            time_completed?: string | null;
                            time_created?: string;
                            time_updated?: string;
                            time_uploaded?: string;
                            upload_status?: string;
                            user?: number | null;
                            version?: number;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            ancestors?: string[];
                            archived?: boolean;
                            children_count?: number;
                            completed?: boolean;
                            /** @description Answers by repeat index, then by item id */
                            data?: {
                                [key: string]: unknown;
                            };
                            deleted?: boolean;
                            device_id?: string;
                            display_name?: string;
                            email?: string;
                            /** @description The GeoJSON point as uploaded, or null */
                            geotag?: unknown;
                            geotag_history?: unknown[];
                            group_id?: number | null;
                            id?: number;
                            is_marker?: boolean;
                            is_valid?: boolean;
                            locked?: boolean;
                            lookup_answers?: {
                                [key: string]: unknown;
                            };
                            media_uploading_count?: number;
                            parent_id?: string | null;
                            project?: number;
                            response_id?: string;
                            response_referenced_id?: string | null;
                            sampler_schema?: number;
                            signature_uploading_count?: number;
                            site_id?: number | null;
                            team_id?: number | null;
                            time_completed?: string | null;
                            time_created?: string;
                            time_updated?: string;
                            time_uploaded?: string;
                            upload_status?: string;
                            user?: number | null;
                            version?: number;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/response/complete/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        archived?: boolean;
                        /** @description Answers by repeat index, then by item id */
                        data?: {
                            [key: string]: Record<string, never>;
                        };
                        deleted?: boolean;
                        device_id?: string;
                        email?: string;
                        geotag?: {
                            [key: string]: unknown;
                        } | null;
                        group?: number | null;
                        is_marker?: boolean;
                        locked?: boolean;
                        parent_id?: string | null;
                        project?: number;
                        response_id?: string;
                        response_referenced_id?: string | null;
                        sampler_schema?: number;
                        site?: number | null;
                        team?: number | null;
                        /** @description ISO 8601 text or epoch milliseconds */
                        time_completed?: string | number;
                        /** @description ISO 8601 text or epoch milliseconds */
                        time_created?: string | number;
                        /** @description ISO 8601 text or epoch milliseconds */
                        time_updated?: string | number;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            ancestors?: string[];
                            archived?: boolean;
                            children_count?: number;
                            completed?: boolean;
                            /** @description Answers by repeat index, then by item id */
                            data?: {
                                [key: string]: unknown;
                            };
                            deleted?: boolean;
                            device_id?: string;
                            display_name?: string;
                            email?: string;
                            /** @description The GeoJSON point as uploaded, or null */
                            geotag?: unknown;
                            geotag_history?: unknown[];
                            group_id?: number | null;
                            id?: number;
                            is_marker?: boolean;
                            is_valid?: boolean;
                            locked?: boolean;
                            lookup_answers?: {
                                [key: string]: unknown;
                            };
                            media_uploading_count?: number;
                            parent_id?: string | null;
                            project?: number;
                            response_id?: string;
                            response_referenced_id?: string | null;
                            sampler_schema?: number;
                            signature_uploading_count?: number;
                            site_id?: number | null;
                            team_id?: number | null;
                            time_completed?: string | null;
                            time_created?: string;
                            time_updated?: string;
                            time_uploaded?: string;
                            upload_status?: string;
                            user?: number | null;
                            version?: number;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            ancestors?: string[];
                            archived?: boolean;
                            children_count?: number;
                            completed?: boolean;
                            /** @description Answers by repeat index, then by item id */
                            data?: {
                                [key: string]: unknown;
                            };
                            deleted?: boolean;
                            device_id?: string;
                            display_name?: string;
                            email?: string;
                            /** @description The GeoJSON point as uploaded, or null */
                            geotag?: unknown;
                            geotag_history?: unknown[];
                            group_id?: number | null;
                            id?: number;
                            is_marker?: boolean;
                            is_valid?: boolean;
                            locked?: boolean;
                            lookup_answers?: {
                                [key: string]: unknown;
                            };
                            media_uploading_count?: number;
                            parent_id?: string | null;
                            project?: number;
                            response_id?: string;
                            response_referenced_id?: string | null;
                            sampler_schema?: number;
                            signature_uploading_count?: number;
                            site_id?: number | null;
                            team_id?: number | null;
                            time_completed?: string | null;
                            time_created?: string;
                            time_updated?: string;
                            time_uploaded?: string;
                            upload_status?: string;
                            user?: number | null;
                            version?: number;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/response/from/{lastId}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description At most this many responses (default 5000) */
                    limit?: string;
                };
                header?: never;
                path: {
                    id: string;
                    lastId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count?: number;
                            results?: components["schemas"]["Response"][];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/response/lookup/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description The lookup value */
                    key?: string;
                    /** @description The schema whose lookup answers are searched */
                    schema?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count?: number;
                            results?: components["schemas"]["Response"][];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/response/single/{responseId}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    responseId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Response"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/response/uncomplete/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        archived?: boolean;
                        /** @description Answers by repeat index, then by item id */
                        data?: {
                            [key: string]: Record<string, never>;
                        };
                        deleted?: boolean;
                        device_id?: string;
                        email?: string;
                        geotag?: {
                            [key: string]: unknown;
                        } | null;
                        group?: number | null;
                        is_marker?: boolean;
                        locked?: boolean;
                        parent_id?: string | null;
                        project?: number;
                        response_id?: string;
                        response_referenced_id?: string | null;
                        sampler_schema?: number;
                        site?: number | null;
                        team?: number | null;
                        /** @description ISO 8601 text or epoch milliseconds */
                        time_completed?: string | number;
                        /** @description ISO 8601 text or epoch milliseconds */
                        time_created?: string | number;
                        /** @description ISO 8601 text or epoch milliseconds */
                        time_updated?: string | number;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            ancestors?: string[];
                            archived?: boolean;
                            children_count?: number;
                            completed?: boolean;
                            /** @description Answers by repeat index, then by item id */
                            data?: {
                                [key: string]: unknown;
                            };
                            deleted?: boolean;
                            device_id?: string;
                            display_name?: string;
                            email?: string;
                            /** @description The GeoJSON point as uploaded, or null */
                            geotag?: unknown;
                            geotag_history?: unknown[];
                            group_id?: number | null;
                            id?: number;
                            is_marker?: boolean;
                            is_valid?: boolean;
                            locked?: boolean;
                            lookup_answers?: {
                                [key: string]: unknown;
                            };
                            media_uploading_count?: number;
                            parent_id?: string | null;
                            project?: number;
                            response_id?: string;
                            response_referenced_id?: string | null;
                            sampler_schema?: number;
                            signature_uploading_count?: number;
                            site_id?: number | null;
                            team_id?: number | null;
                            time_completed?: string | null;
                            time_created?: string;
                            time_updated?: string;
                            time_uploaded?: string;
                            upload_status?: string;
                            user?: number | null;
                            version?: number;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            ancestors?: string[];
                            archived?: boolean;
                            children_count?: number;
                            completed?: boolean;
                            /** @description Answers by repeat index, then by item id */
                            data?: {
                                [key: string]: unknown;
                            };
                            deleted?: boolean;
                            device_id?: string;
                            display_name?: string;
                            email?: string;
                            /** @description The GeoJSON point as uploaded, or null */
                            geotag?: unknown;
                            geotag_history?: unknown[];
                            group_id?: number | null;
                            id?: number;
                            is_marker?: boolean;
                            is_valid?: boolean;
                            locked?: boolean;
                            lookup_answers?: {
                                [key: string]: unknown;
                            };
                            media_uploading_count?: number;
                            parent_id?: string | null;
                            project?: number;
                            response_id?: string;
                            response_referenced_id?: string | null;
                            sampler_schema?: number;
                            signature_uploading_count?: number;
                            site_id?: number | null;
                            team_id?: number | null;
                            time_completed?: string | null;
                            time_created?: string;
                            time_updated?: string;
                            time_uploaded?: string;
                            upload_status?: string;
                            user?: number | null;
                            version?: number;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/results/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        /** @enum {string|null} */
                        aggregator?: "sum" | "avg" | "count" | "min" | "max" | "stddev" | "var" | null;
                        block?: number | null;
                        buckets?: number;
                        /** @description A list of {by: site|group|team|collector|question|period, item_id?, period?, limit? (1-100, default 50)}. */
                        comparisons?: Record<string, never>[] | null;
                        filters?: unknown;
                        item_ids?: number[];
                        schema?: number | null;
                        time_zone?: string | null;
                        timing_column?: string | null;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/results/collectors/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description People a page, 1 to 100 (default 50). */
                    limit?: string;
                    /** @description People to skip (default 0). */
                    offset?: string;
                    /** @description Words every name holds (accents and case ignored). */
                    q?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            results: {
                                id: number;
                                name: string;
                                responses: number;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/results/lookups/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description Profiles a page, 1 to 100 (default 50). */
                    limit?: string;
                    /** @description Profiles to skip (default 0). */
                    offset?: string;
                    /** @description Only profiles whose lookup or primary-key answer holds this (case-insensitive). */
                    q?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/results/schema/{schemaId}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    schemaId: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        /** @enum {string|null} */
                        aggregator?: "sum" | "avg" | "count" | "min" | "max" | "stddev" | "var" | null;
                        block?: number | null;
                        buckets?: number;
                        /** @description A list of {by: site|group|team|collector|question|period, item_id?, period?, limit? (1-100, default 50)}. */
                        comparisons?: Record<string, never>[] | null;
                        filters?: unknown;
                        item_ids?: number[];
                        schema?: number | null;
                        time_zone?: string | null;
                        timing_column?: string | null;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/results/schema/{schemaId}/block/{blockId}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    blockId: string;
                    id: string;
                    schemaId: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        /** @enum {string|null} */
                        aggregator?: "sum" | "avg" | "count" | "min" | "max" | "stddev" | "var" | null;
                        block?: number | null;
                        buckets?: number;
                        /** @description A list of {by: site|group|team|collector|question|period, item_id?, period?, limit? (1-100, default 50)}. */
                        comparisons?: Record<string, never>[] | null;
                        filters?: unknown;
                        item_ids?: number[];
                        schema?: number | null;
                        time_zone?: string | null;
                        timing_column?: string | null;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/results/schema/{schemaId}/item/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    schemaId: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        /** @enum {string|null} */
                        aggregator?: "sum" | "avg" | "count" | "min" | "max" | "stddev" | "var" | null;
                        block?: number | null;
                        buckets?: number;
                        /** @description A list of {by: site|group|team|collector|question|period, item_id?, period?, limit? (1-100, default 50)}. */
                        comparisons?: Record<string, never>[] | null;
                        filters?: unknown;
                        item_ids?: number[];
                        schema?: number | null;
                        time_zone?: string | null;
                        timing_column?: string | null;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/results/schema/{schemaId}/item/{itemId}/token/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    itemId: string;
                    schemaId: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        /** @enum {string|null} */
                        aggregator?: "sum" | "avg" | "count" | "min" | "max" | "stddev" | "var" | null;
                        block?: number | null;
                        buckets?: number;
                        /** @description A list of {by: site|group|team|collector|question|period, item_id?, period?, limit? (1-100, default 50)}. */
                        comparisons?: Record<string, never>[] | null;
                        filters?: unknown;
                        item_ids?: number[];
                        schema?: number | null;
                        time_zone?: string | null;
                        timing_column?: string | null;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            expires_in?: number;
                            token?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/results/schema/{schemaId}/lookups/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description Profiles a page, 1 to 100 (default 50). */
                    limit?: string;
                    /** @description Profiles to skip (default 0). */
                    offset?: string;
                    /** @description Only profiles whose lookup or primary-key answer holds this (case-insensitive). */
                    q?: string;
                };
                header?: never;
                path: {
                    id: string;
                    schemaId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/results/schema/{schemaId}/response/{profile}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    profile: string;
                    schemaId: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        /** @enum {string|null} */
                        aggregator?: "sum" | "avg" | "count" | "min" | "max" | "stddev" | "var" | null;
                        block?: number | null;
                        buckets?: number;
                        /** @description A list of {by: site|group|team|collector|question|period, item_id?, period?, limit? (1-100, default 50)}. */
                        comparisons?: Record<string, never>[] | null;
                        filters?: unknown;
                        item_ids?: number[];
                        schema?: number | null;
                        time_zone?: string | null;
                        timing_column?: string | null;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/results/schema/{schemaId}/responses/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    schemaId: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        /** @enum {string|null} */
                        aggregator?: "sum" | "avg" | "count" | "min" | "max" | "stddev" | "var" | null;
                        block?: number | null;
                        buckets?: number;
                        /** @description A list of {by: site|group|team|collector|question|period, item_id?, period?, limit? (1-100, default 50)}. */
                        comparisons?: Record<string, never>[] | null;
                        filters?: unknown;
                        item_ids?: number[];
                        schema?: number | null;
                        time_zone?: string | null;
                        timing_column?: string | null;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            response_ids?: string[];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/sites/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        date_end?: string | null;
                        date_start?: string | null;
                        frontend_color?: string | null;
                        frontend_icon?: string | null;
                        /** @description A GeoJSON point {"type": "Point", "coordinates": [lng, lat]} or {"latitude", "longitude"}; anything else: 400 "Geotag is required". */
                        geotag?: unknown;
                        goal_count?: number | null;
                        name?: string;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Site"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/sites/{sub}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    sub: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        date_end?: string | null;
                        date_start?: string | null;
                        frontend_color?: string | null;
                        frontend_icon?: string | null;
                        /** @description A GeoJSON point {"type": "Point", "coordinates": [lng, lat]} or {"latitude", "longitude"}; anything else: 400 "Geotag is required". */
                        geotag?: unknown;
                        goal_count?: number | null;
                        name?: string;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Site"];
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    sub: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Done: no content. */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    sub: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        active_flag?: boolean;
                        date_end?: string | null;
                        date_start?: string | null;
                        frontend_color?: string | null;
                        frontend_icon?: string | null;
                        /** @description A GeoJSON point {"type": "Point", "coordinates": [lng, lat]} or {"latitude", "longitude"}; anything else: 400 "Geotag is required". */
                        geotag?: unknown;
                        goal_count?: number | null;
                        name?: string;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Site"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/project/{id}/status/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        project_state?: string;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            project_state?: string;
                            status?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/summary-by-site/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count?: number;
                            results?: ({
                                active_flag?: boolean;
                                collectors?: number;
                                complete_responses?: number;
                                last_response?: string | null;
                                name?: string;
                                site_id?: number;
                                total_responses?: number;
                            } & {
                                [key: string]: unknown;
                            })[];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/summary/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        filters?: {
                            collector?: number[];
                            createdBy?: number[];
                            group?: number[];
                            site?: number[];
                            team?: number[];
                        } | null;
                        page?: number;
                        page_size?: number;
                        schema?: number | null;
                        time_zone?: string | null;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            advanced_results: {
                                description: string;
                                display_type: string;
                                error: string | null;
                                id: number;
                                name: string;
                                /** @enum {string} */
                                status: "above" | "below" | "within" | "none";
                                threshold_value_lower: number | null;
                                threshold_value_upper: number | null;
                                value: number | null;
                            }[];
                            by_site: {
                                count: number;
                                results: {
                                    avg_duration_s: number | null;
                                    collectors: number;
                                    completed: number;
                                    expected: number | null;
                                    first_response: string | null;
                                    id: number;
                                    last_activity: string | null;
                                    last_response: string | null;
                                    median_duration_s: number | null;
                                    name: string;
                                    parent_id: number | null;
                                    percent: number | null;
                                    responses: number;
                                    target: number;
                                }[];
                            };
                            totals: {
                                collectors: number;
                                completed: number;
                                deleted: number;
                                first_response: string | null;
                                in_progress: number;
                                last_response: string | null;
                                responses: number;
                                sites: number;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/surveys/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count?: number;
                            results?: components["schemas"]["Survey"][];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        expiry_date?: string | null;
                        kind?: string | null;
                        name?: string | null;
                        proceed_unauthenticated?: boolean | null;
                        site?: number | null;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Survey"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/surveys/{surveyId}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    surveyId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Survey"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/surveys/{surveyId}/expire/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    surveyId: string;
                };
                cookie?: never;
            };
            /** @description Nothing is read from the body: send none, or {}. */
            requestBody?: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    } | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Survey"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/surveys/{surveyId}/revoke/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    surveyId: string;
                };
                cookie?: never;
            };
            /** @description Nothing is read from the body: send none, or {}. */
            requestBody?: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    } | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Survey"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/teams/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        group?: number | null;
                        name?: string;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Team"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/teams/{sub}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    sub: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Done: no content. */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    sub: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        group?: number | null;
                        name?: string;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Team"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/project/{id}/timingcolumn/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        timing_column?: string;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Project"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/tracking/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        /** @description YYYY-MM-DD (inclusive); empty or null: no bound */
                        end_date?: string | null;
                        filters?: {
                            group?: number[];
                            site?: number[];
                            team?: number[];
                        } | null;
                        page?: number;
                        page_size?: number;
                        schema?: number | null;
                        /** @description YYYY-MM-DD (inclusive); empty or null: no bound */
                        start_date?: string | null;
                        time_zone?: string | null;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            by_group: {
                                count: number;
                                results: {
                                    avg_duration_s: number | null;
                                    collectors: number;
                                    completed: number;
                                    expected: number | null;
                                    first_response: string | null;
                                    id: number;
                                    last_activity: string | null;
                                    last_response: string | null;
                                    median_duration_s: number | null;
                                    name: string;
                                    parent_id: number | null;
                                    percent: number | null;
                                    responses: number;
                                    target: number;
                                }[];
                            };
                            by_site: {
                                count: number;
                                results: {
                                    avg_duration_s: number | null;
                                    collectors: number;
                                    completed: number;
                                    expected: number | null;
                                    first_response: string | null;
                                    id: number;
                                    last_activity: string | null;
                                    last_response: string | null;
                                    median_duration_s: number | null;
                                    name: string;
                                    parent_id: number | null;
                                    percent: number | null;
                                    responses: number;
                                    target: number;
                                }[];
                            };
                            by_team: {
                                count: number;
                                results: {
                                    avg_duration_s: number | null;
                                    collectors: number;
                                    completed: number;
                                    expected: number | null;
                                    first_response: string | null;
                                    id: number;
                                    last_activity: string | null;
                                    last_response: string | null;
                                    median_duration_s: number | null;
                                    name: string;
                                    parent_id: number | null;
                                    percent: number | null;
                                    responses: number;
                                    target: number;
                                }[];
                            };
                            end_date: string | null;
                            project: {
                                avg_duration_s: number | null;
                                collectors: number;
                                completed: number;
                                expected: number | null;
                                first_response: string | null;
                                id: number;
                                last_activity: string | null;
                                last_response: string | null;
                                median_duration_s: number | null;
                                name: string;
                                parent_id: number | null;
                                percent: number | null;
                                responses: number;
                                target: number;
                            };
                            start_date: string | null;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/type/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        project_type?: string;
                        trend_series_options?: ({
                            aggregator?: string;
                            time_particle?: string;
                            trend_question?: string | number;
                            trend_question_schema?: number | null;
                        } & {
                            [key: string]: unknown;
                        }) | null;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Project"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/upload/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "multipart/form-data": {
                        /**
                         * Format: binary
                         * @description The file, at most 50 MB (413 beyond).
                         */
                        file: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            content_type?: string;
                            file_id?: string;
                            filename?: string;
                            size?: number;
                            url?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/users/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description The same as role */
                    filter?: string;
                    /** @description Page number, from 1 */
                    page?: string;
                    /** @description Users a page (0: the default) */
                    page_size?: string;
                    /** @description Only users with this role */
                    role?: string;
                    /** @description Name or email contains */
                    search?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description How many users match, over every page */
                            count?: number;
                            /** @description Says that the page size was capped, when it was */
                            detail?: string;
                            page?: number;
                            /** @description The page size used */
                            page_size?: number;
                            /** @description The page size asked for was over the cap */
                            page_size_capped?: boolean;
                            results?: components["schemas"]["ProjectUser"][];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/users/{userId}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        collector?: boolean;
                        data_manager?: boolean;
                        first_name?: string | null;
                        group?: number | null;
                        last_name?: string | null;
                        project_admin?: boolean;
                        project_owner?: boolean;
                        read_sites?: number[] | null;
                        researcher?: boolean;
                        site?: number | null;
                        staff_admin?: boolean;
                        team?: number | null;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ProjectUser"];
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Done: no content. */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/users/userslist/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "multipart/form-data": {
                        /**
                         * Format: binary
                         * @description The file, at most 5 MB (413 beyond).
                         */
                        file: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            added?: number;
                            failed?: number;
                            job?: components["schemas"]["Job"];
                            rows?: ({
                                email?: string;
                                errors?: string[];
                                /** @description 1-based row of the list */
                                row?: number;
                                /** @description added, updated or failed */
                                status?: string;
                                user_id?: number;
                            } & {
                                [key: string]: unknown;
                            })[];
                            updated?: number;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            job?: components["schemas"]["Job"];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/project/{id}/xlsx_excel/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    /** @description The language of the labels (ISO 639-1). */
                    lang?: string;
                    /** @description Repeats: wide (default) writes a column per repeat instance (a long table past 20); long writes a row per response and instance. */
                    layout?: "wide" | "long";
                    /** @description A lookup profile: only that respondent’s responses. */
                    profile?: string;
                    /** @description The schema to export (an id; none: the first level). */
                    schema?: string;
                    /** @description 0: answer at once with the job; 1 (or none): wait up to 10 s for the file. */
                    wait?: "0" | "1";
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            job?: components["schemas"]["Job"];
                            url?: string | null;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            job?: components["schemas"]["Job"];
                            /** @enum {object|null} */
                            url?: never | null;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/request-invite/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email: string;
                        name?: string;
                        organization?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            detail?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/samplerschema/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SamplerSchema"];
                    };
                };
            };
        };
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": ({
                        name?: string | null;
                        revision?: number | null;
                    } & {
                        [key: string]: unknown;
                    }) | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SamplerSchema"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/samplerschema/{id}/versions/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Earlier versions of a form, newest first */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count?: number;
                            results?: ({
                                /** @description The revision this version was saved as */
                                id?: number;
                                name?: string;
                                questions?: number;
                                time_saved?: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/samplerschema/{id}/versions/{versionId}/restore/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Makes an earlier version the current form; the current one becomes a version */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    versionId: string;
                };
                cookie?: never;
            };
            /** @description Nothing is read from the body: send none, or {}. */
            requestBody?: {
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    } | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SamplerSchema"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/samplerschema/{id}/xlsform/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The form as an XLSForm (.xlsx: survey, choices, settings) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The form as an XLSForm workbook (an attachment) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": string;
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AdvancedResult: {
            deleted?: boolean;
            description?: string;
            display_type?: string;
            edit_mode?: boolean;
            /** @description The editor state, as sent */
            editor_state?: unknown;
            formula?: string;
            id?: number;
            name?: string;
            project?: number;
            show_on_project_summary?: boolean;
            show_on_site_summary?: boolean;
            threshold_value_lower?: number | null;
            threshold_value_upper?: number | null;
            time_created?: string;
            time_updated?: string;
        } & {
            [key: string]: unknown;
        };
        Group: {
            id: number;
            name: string;
            site: number;
            teams: number[];
        } & {
            [key: string]: unknown;
        };
        Job: {
            error?: string;
            expires_at?: string;
            id?: string;
            kind?: string;
            percent?: number;
            profile?: string;
            project_id?: number;
            /** @description Imports: a CSV of the refused rows while it lives */
            report_url?: string | null;
            /** @description What the job did: import counts, or the bulk users report */
            result?: unknown;
            rows_done?: number;
            rows_failed?: number;
            rows_total?: number;
            schema_id?: number;
            size?: number;
            /** @description queued, running, done, failed or cancelled */
            status?: string;
            time_created?: string;
            /** @description A download link while the file lives (done jobs only) */
            url?: string | null;
        } & {
            [key: string]: unknown;
        };
        Organization: {
            address?: string;
            description?: string;
            flagged_features?: string[];
            id?: number;
            name?: string;
            organizationuser_set?: components["schemas"]["OrganizationUser"][];
            permissions?: string[];
            project_details?: components["schemas"]["ProjectSummary"][];
            projects?: number[];
            time_created?: string;
        };
        OrganizationUser: {
            billing_admin?: boolean;
            email?: string;
            first_name?: string;
            id?: number;
            invited?: boolean;
            is_active?: boolean;
            last_name?: string;
            name?: string;
            organization?: number;
            orguser_id?: number;
            owner?: boolean;
            project_admin?: boolean;
            user?: number;
            user_admin?: boolean;
            username?: string;
        };
        Project: {
            aggregator?: string;
            /** @description The full project only: the sites the caller may file responses under */
            collect_sites?: number[];
            complete_responses?: number;
            current_collection_round?: ({
                date_start_timestamp?: string;
            } & {
                [key: string]: unknown;
            }) | null;
            current_survey?: components["schemas"]["Survey"] | (never | null);
            date_end?: string | null;
            description?: string;
            folder_id?: number | null;
            frontend_color?: string;
            frontend_icon?: string;
            geotag?: ({
                coordinates?: number[];
                type?: string;
            } & {
                [key: string]: unknown;
            }) | null;
            goal_count?: number;
            /** @description The full project only */
            groups?: components["schemas"]["Group"][];
            id?: number;
            incomplete_responses?: number;
            is_entity?: boolean;
            is_hierarchical?: boolean;
            last_response?: string | null;
            logo?: string | null;
            name?: string;
            permissions?: string[];
            primary_organization?: number;
            project_hierarchy?: ({
                level?: number;
                name?: string;
                schema_id?: number;
            } & {
                [key: string]: unknown;
            })[];
            project_period?: string;
            project_state?: string;
            project_type?: string;
            /** @description The full project only: how many users it has */
            projectuser_count?: number;
            /** @description The full project only: its first users (projectuser_count says how many; GET project/{id}/users/ pages) */
            projectuser_set?: components["schemas"]["ProjectUser"][];
            references?: number[];
            /** @description The full project only */
            sampler_schemas?: ({
                id?: number;
                level?: number;
                name?: string;
                version?: string;
            } & {
                [key: string]: unknown;
            })[];
            /** @description The full project only */
            sites?: components["schemas"]["Site"][];
            /** @description The full project only */
            teams?: components["schemas"]["Team"][];
            time_created?: string;
            time_updated?: string;
            timing_column?: string;
            total_responses?: number;
            trend_series_options?: ({
                aggregator?: string;
                time_particle?: string;
                trend_question?: string;
                trend_question_schema?: number;
            } & {
                [key: string]: unknown;
            }) | null;
        } & {
            [key: string]: unknown;
        };
        ProjectSummary: {
            description?: string;
            folder_id?: number | null;
            frontend_color?: string;
            frontend_icon?: string;
            geotag?: {
                coordinates?: number[];
                /** @enum {string} */
                type?: "Point";
            } | null;
            id?: number;
            last_response?: string | null;
            name?: string;
            primary_organization?: number;
            project_state?: string;
            project_type?: string;
            time_created?: string;
            time_updated?: string;
            total_responses?: number;
        } & {
            [key: string]: unknown;
        };
        ProjectUser: {
            collector?: boolean;
            data_manager?: boolean;
            display_name?: string;
            email?: string;
            group?: number | null;
            id?: number;
            org_id?: number;
            permissions?: string[];
            project_admin?: boolean;
            project_owner?: boolean;
            read_sites?: number[];
            researcher?: boolean;
            site?: number | null;
            staff_admin?: boolean;
            team?: number | null;
            user?: number;
            user_id?: number;
            username?: string;
        } & {
            [key: string]: unknown;
        };
        ReferenceResponse: {
            completed?: boolean;
            display_name?: string;
            id?: number;
            lookup_answers?: {
                [key: string]: unknown;
            };
            project?: number;
            response_id?: string;
            sampler_schema?: number;
            time_created?: string;
            time_updated?: string;
            version?: number;
        } & {
            [key: string]: unknown;
        };
        Response: {
            ancestors?: string[];
            archived?: boolean;
            children_count?: number;
            completed?: boolean;
            /** @description Answers by repeat index, then by item id */
            data?: {
                [key: string]: unknown;
            };
            deleted?: boolean;
            device_id?: string;
            display_name?: string;
            email?: string;
            /** @description The GeoJSON point as uploaded, or null */
            geotag?: unknown;
            geotag_history?: unknown[];
            group_id?: number | null;
            id?: number;
            is_marker?: boolean;
            is_valid?: boolean;
            locked?: boolean;
            lookup_answers?: {
                [key: string]: unknown;
            };
            media_uploading_count?: number;
            parent_id?: string | null;
            project?: number;
            response_id?: string;
            response_referenced_id?: string | null;
            sampler_schema?: number;
            signature_uploading_count?: number;
            site_id?: number | null;
            team_id?: number | null;
            time_completed?: string | null;
            time_created?: string;
            time_updated?: string;
            time_uploaded?: string;
            user?: number | null;
            version?: number;
        } & {
            [key: string]: unknown;
        };
        SamplerSchema: {
            editable?: boolean;
            id?: number;
            level?: number;
            name?: string;
            project?: number;
            revision?: number;
            time_updated?: string;
        } & {
            [key: string]: unknown;
        };
        Site: {
            active_flag: boolean;
            date_end: string | null;
            date_start: string | null;
            duration_days: number | null;
            frontend_color: string;
            frontend_icon: string;
            geotag: ({
                coordinates?: number[];
                type?: string;
            } & {
                [key: string]: unknown;
            }) | null;
            goal_count: number;
            groups: number[];
            id: number;
            last_response: string | null;
            name: string;
            project: number;
            total_responses: number;
        } & {
            [key: string]: unknown;
        };
        Survey: {
            expired: boolean;
            /** @description null: an anonymous link that never expires */
            expiry_date: string | null;
            id: number;
            /** @enum {string} */
            kind: "anonymous" | "survey";
            name: string;
            proceed_unauthenticated: boolean;
            project: number;
            revoked_at: string | null;
            site: number | null;
            time_created: string;
            token: string;
        } & {
            [key: string]: unknown;
        };
        Team: {
            group: number;
            id: number;
            name: string;
            users: number[];
        } & {
            [key: string]: unknown;
        };
        User: {
            current_organization?: number | null;
            email?: string;
            first_name?: string;
            groups?: string[];
            id?: number;
            is_mobilemanager?: boolean;
            is_staff?: boolean;
            is_superuser?: boolean;
            last_login?: string | null;
            last_name?: string;
            name?: string;
            organizations?: {
                id?: number;
                name?: string;
            }[];
            settings?: {
                account_activation_date?: string | null;
                agreed_privacy?: string;
                agreed_terms?: string;
                lifetime_datapoints?: number;
                lifetime_hours?: number;
            };
            time_created?: string;
            username?: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
