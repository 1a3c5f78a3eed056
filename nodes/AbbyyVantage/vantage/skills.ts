/** Advice for requests naming a skill, by status. */
export const SKILL_HINTS = {
	403: 'The API client may not be allowed to use this skill.',
	404: 'Only published skills can be used; an unpublished skill looks the same as a missing one.',
};
