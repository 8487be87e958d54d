import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b}from"./chunk-R6AQRZO6.js";import"./chunk-AFRYTVBB.js";import"./chunk-5LCXE5PK.js";import"./chunk-QYERGTCH.js";import"./chunk-B6ZCMRJY.js";import"./chunk-MPK6L5VR.js";import"./chunk-CCUMUQ2Z.js";import"./chunk-SKUA5T56.js";import"./chunk-AGOBB62V.js";import"./chunk-YS6ZMVJH.js";import"./chunk-XBPPTJU7.js";export{b as action,a as post};
