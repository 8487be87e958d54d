import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a as n}from"./chunk-FUSE6A2Q.js";import{a as e}from"./chunk-XBPPTJU7.js";function o(t,i){if(!i)return{missing:"`github-token` is empty (its default is the workflow's token)"};let r=t.GITHUB_REPOSITORY??"";return n.test(r)?{token:i,repository:r,apiUrl:t.GITHUB_API_URL||"https://api.github.com"}:{missing:"GITHUB_REPOSITORY does not name the repository"}}e(o,"githubApiTarget");export{o as a};
