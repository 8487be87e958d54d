import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a}from"./chunk-4V2J6ZPQ.js";import"./chunk-OULGIBU3.js";import"./chunk-SYKTMU6E.js";import"./chunk-LC5F4MIW.js";import"./chunk-LQ4X2TR5.js";import"./chunk-S6LZZGEC.js";import"./chunk-7DOOPZ4R.js";import"./chunk-QQMVQEPJ.js";import"./chunk-XBPPTJU7.js";export{a as action};
